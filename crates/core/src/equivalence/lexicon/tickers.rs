//! Tickers as facts of the field: the coins among the top hundred by
//! market cap and the major stock indices, each with the one name the
//! rules compare ("TRX" is Tron, "NDX" the Nasdaq-100, "RUT" the Russell
//! 2000), and which of them are quote currencies (a dollar, a stablecoin,
//! a fiat code), so that "ETH/BTC" is read as a ratio of two assets and
//! "BTC/USDT" as the price of one.
//!
//! A ticker that is also an English word ("NEAR", "APT", "DOT") names its
//! coin only when written in capitals, as tickers are.

/// The coin a ticker that is no English word stands for, whatever its
/// case ("btc", "TRX").
pub(crate) fn coin_of_ticker(lower: &str) -> Option<&'static str> {
    TICKERS
        .binary_search_by_key(&lower, |&(ticker, _)| ticker)
        .ok()
        .map(|at| TICKERS[at].1)
}

/// (ticker, coin) of the tickers that are no English word, sorted by
/// ticker for binary search (a test checks): data, not the comparisons a
/// `match` on string literals compiles into.
const TICKERS: &[(&str, &str)] = &[
    ("ada", "cardano"),
    ("avax", "avalanche"),
    ("bnb", "bnb"),
    ("btc", "bitcoin"),
    ("crv", "curve"),
    ("doge", "dogecoin"),
    ("egld", "multiversx"),
    ("ena", "ethena"),
    ("eth", "ethereum"),
    ("ether", "ethereum"),
    ("fil", "filecoin"),
    ("ftm", "fantom"),
    ("hbar", "hedera"),
    ("icp", "icp"),
    ("imx", "immutable"),
    ("inj", "injective"),
    ("jup", "jupiter"),
    ("kas", "kaspa"),
    ("ldo", "lido"),
    ("ltc", "litecoin"),
    ("mkr", "maker"),
    ("sol", "solana"),
    ("stx", "stacks"),
    ("tia", "celestia"),
    ("trx", "tron"),
    ("wld", "worldcoin"),
    ("xbt", "bitcoin"),
    ("xlm", "stellar"),
    ("xmr", "monero"),
    ("xrp", "xrp"),
    ("xtz", "tezos"),
    ("zec", "zcash"),
];

/// The coins whose tickers are also English words, with the coin each
/// stands for: read as the coin only when written in capitals.
const CAPITAL_TICKERS: &[(&str, &str)] = &[
    ("dot", "polkadot"),
    ("ton", "toncoin"),
    ("link", "chainlink"),
    ("uni", "uniswap"),
    ("apt", "aptos"),
    ("tao", "bittensor"),
    ("wif", "dogwifhat"),
    ("op", "optimism"),
    ("arb", "arbitrum"),
    ("atom", "cosmos"),
    ("algo", "algorand"),
    ("mana", "decentraland"),
    ("rune", "thorchain"),
    ("vet", "vechain"),
    ("pol", "polygon"),
    ("matic", "polygon"),
];

/// The coin a ticker that is also a word stands for (see
/// [`CAPITAL_TICKERS`]); the caller knows it was written in capitals.
pub(crate) fn coin_of_capital_ticker(lower: &str) -> Option<&'static str> {
    CAPITAL_TICKERS
        .iter()
        .find_map(|&(ticker, coin)| (ticker == lower).then_some(coin))
}

/// A coin, by its ticker or by the name a capital ticker was read as.
pub(crate) fn is_coin(lower: &str) -> bool {
    coin_of_ticker(lower).is_some() || CAPITAL_TICKERS.iter().any(|&(_, coin)| coin == lower)
}

/// A ticker (or the coin's folded name) that quotes the others: a
/// dollar, a stablecoin, a fiat currency. A pair of two assets neither of
/// which is one of these is a ratio, not a price.
pub(crate) fn is_quote_currency(lower: &str) -> bool {
    matches!(
        lower,
        "usd"
            | "usdt"
            | "tether"
            | "usdc"
            | "pyusd"
            | "dai"
            | "eur"
            | "jpy"
            | "gbp"
            | "chf"
            | "cad"
            | "aud"
            | "nzd"
            | "cny"
            | "cnh"
            | "krw"
            | "inr"
            | "mxn"
            | "brl"
            | "try"
    )
}

/// The index a ticker written in capitals stands for ("NDX", "RUT":
/// "rut" is also a word), as [`super::NUMBERED_NAMES`] reads its name.
pub(crate) fn index_of_ticker(lower: &str) -> Option<&'static str> {
    Some(match lower {
        "ndx" => "ndx",
        "rut" => "rut",
        "spx" | "gspc" => "spx",
        "nky" | "n225" => "nikkei",
        "ukx" => "ftse",
        "sx5e" => "stoxx",
        "dji" | "djia" => "dow",
        _ => return None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_tickers_are_sorted_and_lower_case() {
        let tickers: Vec<&str> = TICKERS.iter().map(|p| p.0).collect();
        crate::equivalence::words::assert_sorted_lower("TICKERS", &tickers);
        assert_eq!(coin_of_ticker("xbt"), Some("bitcoin"));
        assert_eq!(coin_of_ticker("icp"), Some("icp"));
        assert_eq!(coin_of_ticker("dot"), None);
    }
}
