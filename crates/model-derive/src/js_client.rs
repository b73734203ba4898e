//! `js_client!`: the JS client's methods and pagers, expanded from the
//! core's operation table. `#[wasm_bindgen]` reads its TypeScript types
//! from string literals only, so the strings (`"Promise<MarketsResponse>"`,
//! `"string | GetMarketParams"`) are made here from the entry's names, where
//! `macro_rules!` could not join them.
//!
//! Input, forwarded by `predmarket-wasm` from `for_each_operation!`:
//! `methods` or `pagers`, then per operation
//! `#[doc = ".."]* Variant method "name" "/path" paging [pager Item]
//! (form "key"?) Answer;` (the `[..]` empty for an operation on one item).

use proc_macro2::{Ident, Span, TokenStream as Tokens};
use quote::quote;
use syn::parse::{Parse, ParseStream};
use syn::{LitStr, Token, bracketed, parenthesized};

struct Entry {
    docs: Vec<String>,
    variant: Ident,
    method: Ident,
    name: LitStr,
    path: LitStr,
    pager: Option<(Ident, Ident)>,
    /// `optional`, `required` or `id`.
    form: Ident,
    answer: Ident,
}

impl Parse for Entry {
    fn parse(input: ParseStream<'_>) -> syn::Result<Self> {
        let mut docs = Vec::new();
        while input.peek(Token![#]) {
            input.parse::<Token![#]>()?;
            let attr;
            bracketed!(attr in input);
            let key: Ident = attr.parse()?;
            if key != "doc" {
                return Err(syn::Error::new(key.span(), "only doc attributes"));
            }
            attr.parse::<Token![=]>()?;
            docs.push(attr.parse::<LitStr>()?.value().trim().to_owned());
        }
        let variant = input.parse()?;
        let method = input.parse()?;
        let name = input.parse()?;
        let path = input.parse()?;
        let _paging: Ident = input.parse()?;
        let pager_tokens;
        bracketed!(pager_tokens in input);
        let pager = if pager_tokens.is_empty() {
            None
        } else {
            Some((pager_tokens.parse()?, pager_tokens.parse()?))
        };
        let args;
        parenthesized!(args in input);
        let form = args.parse()?;
        if !args.is_empty() {
            args.parse::<LitStr>()?;
        }
        let answer = input.parse()?;
        input.parse::<Token![;]>()?;
        Ok(Self {
            docs,
            variant,
            method,
            name,
            path,
            pager,
            form,
            answer,
        })
    }
}

pub struct Input {
    pagers: bool,
    entries: Vec<Entry>,
}

impl Parse for Input {
    fn parse(input: ParseStream<'_>) -> syn::Result<Self> {
        let mode: Ident = input.parse()?;
        let pagers = match mode.to_string().as_str() {
            "methods" => false,
            "pagers" => true,
            _ => return Err(syn::Error::new(mode.span(), "`methods` or `pagers`")),
        };
        let mut entries = Vec::new();
        while !input.is_empty() {
            entries.push(input.parse()?);
        }
        Ok(Self { pagers, entries })
    }
}

fn lit(text: &str) -> LitStr {
    LitStr::new(text, Span::call_site())
}

/// `profile_trades` → `profileTrades` (`upper`: `ProfileTrades`).
fn camel(snake: &str, upper: bool) -> String {
    let mut out = String::new();
    let mut up = upper;
    for c in snake.chars() {
        if c == '_' {
            up = true;
        } else if up {
            out.extend(c.to_uppercase());
            up = false;
        } else {
            out.push(c);
        }
    }
    out
}

impl Entry {
    /// The parameter attribute of the first argument.
    fn params_attr(&self) -> Tokens {
        let params = format!("{}Params", self.variant);
        match self.form.to_string().as_str() {
            "optional" => {
                let ts = lit(&params);
                quote!(#[wasm_bindgen(unchecked_optional_param_type = #ts)])
            }
            "id" => {
                let ts = lit(&format!("string | {params}"));
                quote!(#[wasm_bindgen(unchecked_param_type = #ts)])
            }
            _ => {
                let ts = lit(&params);
                quote!(#[wasm_bindgen(unchecked_param_type = #ts)])
            }
        }
    }

    fn doc(&self) -> String {
        format!("`GET {}`: {}", self.path.value(), self.docs.join("\n"))
    }

    fn class(&self, pager: &Ident) -> Ident {
        Ident::new(
            &format!("{}Pager", camel(&pager.to_string(), true)),
            pager.span(),
        )
    }

    fn method(&self) -> Tokens {
        let Self {
            variant,
            method,
            name,
            answer,
            ..
        } = self;
        let doc = lit(&self.doc());
        let returns = lit(&format!("Promise<{answer}>"));
        let params = self.params_attr();
        quote! {
            #[doc = #doc]
            #[wasm_bindgen(js_name = #name, unchecked_return_type = #returns)]
            pub fn #method(
                &self,
                #params params: JsValue,
                #[wasm_bindgen(unchecked_optional_param_type = "CallOptions")] options: JsValue,
            ) -> Promise {
                self.call(Operation::#variant, &params, options)
            }
        }
    }

    fn pager_method(&self) -> Tokens {
        let Some((pager, item)) = &self.pager else {
            return Tokens::new();
        };
        let variant = &self.variant;
        let class = self.class(pager);
        let js_name = lit(&camel(&pager.to_string(), false));
        let doc = lit(&format!(
            "Every `{item}` of `{}(params)`, page by page (`nextPage()`) or item by \
             item (`for await`). Throws on invalid parameters.",
            self.name.value()
        ));
        let params = self.params_attr();
        let returns = lit(&class.to_string());
        quote! {
            #[doc = #doc]
            #[wasm_bindgen(js_name = #js_name, unchecked_return_type = #returns)]
            pub fn #pager(
                &self,
                #params params: JsValue,
                #[wasm_bindgen(unchecked_optional_param_type = "PagerOptions")] options: JsValue,
            ) -> Result<JsValue, JsValue> {
                self.pager(Operation::#variant, params, options, |session| {
                    crate::pager::#class::new(session).into()
                })
            }
        }
    }

    fn pager_class(&self) -> Tokens {
        let Some((pager, item)) = &self.pager else {
            return Tokens::new();
        };
        let class = self.class(pager);
        let doc = lit(&format!(
            "Every `{item}` of `{}`, page by page or item by item.",
            self.name.value()
        ));
        let page = lit(&format!("Promise<Page<{item}, {}> | null>", self.answer));
        let iterator = lit(&format!("AsyncIterator<{item}>"));
        quote!(#[doc = #doc] #class => #page, #iterator;)
    }
}

pub fn expand(input: Input) -> Tokens {
    if input.pagers {
        let classes = input.entries.iter().map(Entry::pager_class);
        quote!(pager_classes! { #(#classes)* })
    } else {
        let methods = input.entries.iter().map(Entry::method);
        let pagers = input.entries.iter().map(Entry::pager_method);
        quote! {
            #[wasm_bindgen]
            impl Client {
                #(#methods)*
                #(#pagers)*
            }
        }
    }
}

pub fn parse(tokens: proc_macro::TokenStream) -> syn::Result<Input> {
    syn::parse(tokens)
}

#[cfg(test)]
mod tests {
    use super::camel;

    #[test]
    fn snake_names_become_camel() {
        assert_eq!(camel("profile_trades", false), "profileTrades");
        assert_eq!(camel("profile_trades", true), "ProfileTrades");
        assert_eq!(camel("markets", true), "Markets");
    }
}
