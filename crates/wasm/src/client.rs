//! The `Client` class: one method per operation, one pager per list.

use crate::ops::{self, At};
use crate::pager::{
    AwardsPager, EventsPager, FuturesPager, GamesPager, MarketsPager, ProfileTradesPager,
    SeriesPager, Session, TradesPager,
};
use crate::{call_options, errors, json, options, params};
use js_sys::Promise;
use predmarket_client::Error;
use predmarket_client::core::request::{HttpRequest, Operation};
use predmarket_client::fetch::{FetchClient, FetchTransport};
use std::rc::Rc;
use wasm_bindgen::prelude::*;

/// A client of the predmarket service. Holds the rate budget, the cache and
/// the requests in flight: create one and share it.
#[wasm_bindgen]
pub struct Client {
    pub(crate) inner: Rc<FetchClient>,
    /// The `fetch` option, for the watch streams' own request (watch.rs).
    pub(crate) fetch: Option<js_sys::Function>,
}

impl Client {
    /// Sends the request of `operation` built from `params` and resolves with the
    /// page `JSON.parse` built from the body, which never crosses into wasm
    /// memory. Not generic, and not inlined into the methods: every method
    /// is one call of this with its operation's descriptor.
    #[inline(never)]
    fn call(&self, operation: Operation, params: &JsValue, given: JsValue) -> Promise {
        let op = ops::op(operation);
        // Captured now, while the caller's frames are on the stack: a
        // rejection's stack points at the call, not at the promise machinery.
        let site = js_sys::Error::new("");
        let http = params::values(op, params)
            .and_then(|values| (op.build)(values, At::Given))
            .map(|built| built.http);
        crate::pager::boxed_promise(Box::pin(fetch_json(self.inner.clone(), http, given, site)))
    }

    #[inline(never)]
    fn session(
        &self,
        operation: Operation,
        params: &JsValue,
        options: JsValue,
    ) -> Result<Rc<Session>, JsValue> {
        let op = ops::op(operation);
        params::values(op, params)
            .and_then(|values| Session::new(self.inner.clone(), op, values, options))
            .map_err(|e| errors::to_js(&e))
    }
}

async fn fetch_json(
    inner: Rc<FetchClient>,
    http: Result<HttpRequest, Error>,
    given: JsValue,
    site: js_sys::Error,
) -> Result<JsValue, JsValue> {
    let run = async {
        call_options::check_options(&given, call_options::CALL_OPTIONS, "call options")?;
        let http = http?;
        let call = call_options::Call::read(&given)?;
        let answer = inner.send_http_answer(&http, &call.options).await?;
        call.answered(&answer, &http.url(&inner.config().base_url));
        json::parse_body(&answer.body.0)
    };
    run.await.map_err(|e| errors::to_js_at(&e, &site))
}

#[wasm_bindgen]
impl Client {
    #[wasm_bindgen(constructor)]
    pub fn new(
        #[wasm_bindgen(unchecked_param_type = "ClientOptions")] options: JsValue,
    ) -> Result<Client, JsValue> {
        let (config, fetch) = options::client_config(&options).map_err(|e| errors::to_js(&e))?;
        let transport = FetchTransport::with_fetch(fetch.clone());
        let inner =
            FetchClient::with_transport(config, transport).map_err(|e| errors::to_js(&e))?;
        Ok(Client {
            inner: Rc::new(inner),
            fetch,
        })
    }

    /// The base URL requests go to.
    #[wasm_bindgen(getter, js_name = baseUrl)]
    pub fn base_url(&self) -> String {
        self.inner.config().base_url.clone()
    }

    /// Requests the client-side rate budget allows right now.
    #[wasm_bindgen(getter, js_name = rateBudgetRemaining)]
    pub fn rate_budget_remaining(&self) -> u32 {
        self.inner.rate_budget_remaining()
    }

    /// The intervals the core's watch scheduler gives the active watches of
    /// this client (`wanted`, in ms), within its rate budget: for the
    /// package's `watch*` methods (watch.js), not documented.
    #[wasm_bindgen(js_name = __watchIntervals, skip_typescript)]
    pub fn watch_intervals(&self, wanted: Vec<f64>, visible: bool) -> Vec<f64> {
        use predmarket_client::core::schedule::{Watch, intervals};
        let watches: Vec<Watch> = wanted
            .into_iter()
            .map(|interval_ms| Watch {
                interval_ms,
                visible,
            })
            .collect();
        intervals(
            &watches,
            self.inner.config().rate_limit_per_minute,
            self.inner.rate_budget_remaining(),
        )
    }

    /// Forgets every cached answer (see `cacheTtlMs`).
    #[wasm_bindgen(js_name = clearCache)]
    pub fn clear_cache(&self) {
        self.inner.clear_cache();
    }

    /// `GET /series`: series (groups of events), one page.
    #[wasm_bindgen(js_name = listSeries, unchecked_return_type = "Promise<SeriesResponse>")]
    pub fn list_series(
        &self,
        #[wasm_bindgen(unchecked_optional_param_type = "ListSeriesParams")] params: JsValue,
        #[wasm_bindgen(unchecked_optional_param_type = "CallOptions")] options: JsValue,
    ) -> Promise {
        self.call(Operation::ListSeries, &params, options)
    }

    /// `GET /series/{id}`: one series, by id or `{ id, ... }`.
    #[wasm_bindgen(js_name = getSeries, unchecked_return_type = "Promise<SeriesResponse>")]
    pub fn get_series(
        &self,
        #[wasm_bindgen(unchecked_param_type = "string | GetSeriesParams")] params: JsValue,
        #[wasm_bindgen(unchecked_optional_param_type = "CallOptions")] options: JsValue,
    ) -> Promise {
        self.call(Operation::GetSeries, &params, options)
    }

    /// `GET /markets`: markets, one page (up to 250).
    #[wasm_bindgen(js_name = listMarkets, unchecked_return_type = "Promise<MarketsResponse>")]
    pub fn list_markets(
        &self,
        #[wasm_bindgen(unchecked_optional_param_type = "ListMarketsParams")] params: JsValue,
        #[wasm_bindgen(unchecked_optional_param_type = "CallOptions")] options: JsValue,
    ) -> Promise {
        self.call(Operation::ListMarkets, &params, options)
    }

    /// `GET /markets/{id}`: one market, by id or `{ id, ... }`.
    #[wasm_bindgen(js_name = getMarket, unchecked_return_type = "Promise<MarketsResponse>")]
    pub fn get_market(
        &self,
        #[wasm_bindgen(unchecked_param_type = "string | GetMarketParams")] params: JsValue,
        #[wasm_bindgen(unchecked_optional_param_type = "CallOptions")] options: JsValue,
    ) -> Promise {
        self.call(Operation::GetMarket, &params, options)
    }

    /// `GET /markets/{id}/orderbook`: the order book of a market.
    #[wasm_bindgen(js_name = getOrderbook, unchecked_return_type = "Promise<OrderbookResponse>")]
    pub fn get_orderbook(
        &self,
        #[wasm_bindgen(unchecked_param_type = "string | GetOrderbookParams")] params: JsValue,
        #[wasm_bindgen(unchecked_optional_param_type = "CallOptions")] options: JsValue,
    ) -> Promise {
        self.call(Operation::GetOrderbook, &params, options)
    }

    /// `GET /events`: events (groups of markets), one page.
    #[wasm_bindgen(js_name = listEvents, unchecked_return_type = "Promise<EventsResponse>")]
    pub fn list_events(
        &self,
        #[wasm_bindgen(unchecked_optional_param_type = "ListEventsParams")] params: JsValue,
        #[wasm_bindgen(unchecked_optional_param_type = "CallOptions")] options: JsValue,
    ) -> Promise {
        self.call(Operation::ListEvents, &params, options)
    }

    /// `GET /events/{id}`: one event, by id or `{ id, ... }`.
    #[wasm_bindgen(js_name = getEvent, unchecked_return_type = "Promise<EventsResponse>")]
    pub fn get_event(
        &self,
        #[wasm_bindgen(unchecked_param_type = "string | GetEventParams")] params: JsValue,
        #[wasm_bindgen(unchecked_optional_param_type = "CallOptions")] options: JsValue,
    ) -> Promise {
        self.call(Operation::GetEvent, &params, options)
    }

    /// `GET /trades`: trades of one market, one page; by market id or
    /// `{ market_id, ... }`.
    #[wasm_bindgen(js_name = listTrades, unchecked_return_type = "Promise<TradesResponse>")]
    pub fn list_trades(
        &self,
        #[wasm_bindgen(unchecked_param_type = "string | ListTradesParams")] params: JsValue,
        #[wasm_bindgen(unchecked_optional_param_type = "CallOptions")] options: JsValue,
    ) -> Promise {
        self.call(Operation::ListTrades, &params, options)
    }

    /// `GET /league-info`: one league (`{ league }`) or all of them.
    #[wasm_bindgen(js_name = getLeagueInfo, unchecked_return_type = "Promise<LeagueInfoResponse>")]
    pub fn get_league_info(
        &self,
        #[wasm_bindgen(unchecked_optional_param_type = "GetLeagueInfoParams")] params: JsValue,
        #[wasm_bindgen(unchecked_optional_param_type = "CallOptions")] options: JsValue,
    ) -> Promise {
        self.call(Operation::GetLeagueInfo, &params, options)
    }

    /// `GET /list-games`: games of a league, one page.
    #[wasm_bindgen(js_name = listGames, unchecked_return_type = "Promise<ListGamesResponse>")]
    pub fn list_games(
        &self,
        #[wasm_bindgen(unchecked_param_type = "ListGamesParams")] params: JsValue,
        #[wasm_bindgen(unchecked_optional_param_type = "CallOptions")] options: JsValue,
    ) -> Promise {
        self.call(Operation::ListGames, &params, options)
    }

    /// `GET /games/{game_id}`: a game and every platform's markets on it.
    #[wasm_bindgen(js_name = getGame, unchecked_return_type = "Promise<GameResponse>")]
    pub fn get_game(
        &self,
        #[wasm_bindgen(unchecked_param_type = "string | GetGameParams")] params: JsValue,
        #[wasm_bindgen(unchecked_optional_param_type = "CallOptions")] options: JsValue,
    ) -> Promise {
        self.call(Operation::GetGame, &params, options)
    }

    /// `GET /platforms`: every platform with its health and features.
    #[wasm_bindgen(js_name = listPlatforms, unchecked_return_type = "Promise<PlatformsResponse>")]
    pub fn list_platforms(
        &self,
        #[wasm_bindgen(unchecked_optional_param_type = "ListPlatformsParams")] params: JsValue,
        #[wasm_bindgen(unchecked_optional_param_type = "CallOptions")] options: JsValue,
    ) -> Promise {
        self.call(Operation::ListPlatforms, &params, options)
    }

    /// `GET /futures/{id}`: a future with every platform's odds.
    #[wasm_bindgen(js_name = getFuture, unchecked_return_type = "Promise<FutureResponse>")]
    pub fn get_future(
        &self,
        #[wasm_bindgen(unchecked_param_type = "string | GetFutureParams")] params: JsValue,
        #[wasm_bindgen(unchecked_optional_param_type = "CallOptions")] options: JsValue,
    ) -> Promise {
        self.call(Operation::GetFuture, &params, options)
    }

    /// `GET /list-futures`: futures of a league, one page (offset paging).
    #[wasm_bindgen(js_name = listFutures, unchecked_return_type = "Promise<ListFuturesResponse>")]
    pub fn list_futures(
        &self,
        #[wasm_bindgen(unchecked_param_type = "ListFuturesParams")] params: JsValue,
        #[wasm_bindgen(unchecked_optional_param_type = "CallOptions")] options: JsValue,
    ) -> Promise {
        self.call(Operation::ListFutures, &params, options)
    }

    /// `GET /awards/{id}`: an award with every platform's odds.
    #[wasm_bindgen(js_name = getAward, unchecked_return_type = "Promise<AwardResponse>")]
    pub fn get_award(
        &self,
        #[wasm_bindgen(unchecked_param_type = "string | GetAwardParams")] params: JsValue,
        #[wasm_bindgen(unchecked_optional_param_type = "CallOptions")] options: JsValue,
    ) -> Promise {
        self.call(Operation::GetAward, &params, options)
    }

    /// `GET /list-awards`: awards of a league, one page (offset paging).
    #[wasm_bindgen(js_name = listAwards, unchecked_return_type = "Promise<ListAwardsResponse>")]
    pub fn list_awards(
        &self,
        #[wasm_bindgen(unchecked_param_type = "ListAwardsParams")] params: JsValue,
        #[wasm_bindgen(unchecked_optional_param_type = "CallOptions")] options: JsValue,
    ) -> Promise {
        self.call(Operation::ListAwards, &params, options)
    }

    /// `GET /price-history`: price bars of 1 to 10 markets.
    #[wasm_bindgen(js_name = getPriceHistory, unchecked_return_type = "Promise<PriceHistoryResponse>")]
    pub fn get_price_history(
        &self,
        #[wasm_bindgen(unchecked_param_type = "GetPriceHistoryParams")] params: JsValue,
        #[wasm_bindgen(unchecked_optional_param_type = "CallOptions")] options: JsValue,
    ) -> Promise {
        self.call(Operation::GetPriceHistory, &params, options)
    }

    /// `GET /profile/info`: a user's profile and trading metrics.
    #[wasm_bindgen(js_name = getProfileInfo, unchecked_return_type = "Promise<ProfileInfoResponse>")]
    pub fn get_profile_info(
        &self,
        #[wasm_bindgen(unchecked_param_type = "GetProfileInfoParams")] params: JsValue,
        #[wasm_bindgen(unchecked_optional_param_type = "CallOptions")] options: JsValue,
    ) -> Promise {
        self.call(Operation::GetProfileInfo, &params, options)
    }

    /// `GET /profile/trades`: a user's trades, one page.
    #[wasm_bindgen(js_name = listProfileTrades, unchecked_return_type = "Promise<ProfileTradesResponse>")]
    pub fn list_profile_trades(
        &self,
        #[wasm_bindgen(unchecked_param_type = "ListProfileTradesParams")] params: JsValue,
        #[wasm_bindgen(unchecked_optional_param_type = "CallOptions")] options: JsValue,
    ) -> Promise {
        self.call(Operation::ListProfileTrades, &params, options)
    }

    /// Every market of `listMarkets(params)`, page by page (`nextPage()`)
    /// or item by item (`for await`). Throws on invalid parameters.
    pub fn markets(
        &self,
        #[wasm_bindgen(unchecked_optional_param_type = "ListMarketsParams")] params: JsValue,
        #[wasm_bindgen(unchecked_optional_param_type = "PagerOptions")] options: JsValue,
    ) -> Result<MarketsPager, JsValue> {
        Ok(MarketsPager::new(self.session(
            Operation::ListMarkets,
            &params,
            options,
        )?))
    }

    /// Every event of `listEvents(params)`.
    pub fn events(
        &self,
        #[wasm_bindgen(unchecked_optional_param_type = "ListEventsParams")] params: JsValue,
        #[wasm_bindgen(unchecked_optional_param_type = "PagerOptions")] options: JsValue,
    ) -> Result<EventsPager, JsValue> {
        Ok(EventsPager::new(self.session(
            Operation::ListEvents,
            &params,
            options,
        )?))
    }

    /// Every series of `listSeries(params)`.
    pub fn series(
        &self,
        #[wasm_bindgen(unchecked_optional_param_type = "ListSeriesParams")] params: JsValue,
        #[wasm_bindgen(unchecked_optional_param_type = "PagerOptions")] options: JsValue,
    ) -> Result<SeriesPager, JsValue> {
        Ok(SeriesPager::new(self.session(
            Operation::ListSeries,
            &params,
            options,
        )?))
    }

    /// Every trade of a market (`listTrades(params)`).
    pub fn trades(
        &self,
        #[wasm_bindgen(unchecked_param_type = "string | ListTradesParams")] params: JsValue,
        #[wasm_bindgen(unchecked_optional_param_type = "PagerOptions")] options: JsValue,
    ) -> Result<TradesPager, JsValue> {
        Ok(TradesPager::new(self.session(
            Operation::ListTrades,
            &params,
            options,
        )?))
    }

    /// Every game of a league (`listGames(params)`).
    pub fn games(
        &self,
        #[wasm_bindgen(unchecked_param_type = "ListGamesParams")] params: JsValue,
        #[wasm_bindgen(unchecked_optional_param_type = "PagerOptions")] options: JsValue,
    ) -> Result<GamesPager, JsValue> {
        Ok(GamesPager::new(self.session(
            Operation::ListGames,
            &params,
            options,
        )?))
    }

    /// Every future of a league (`listFutures(params)`, offset paging).
    pub fn futures(
        &self,
        #[wasm_bindgen(unchecked_param_type = "ListFuturesParams")] params: JsValue,
        #[wasm_bindgen(unchecked_optional_param_type = "PagerOptions")] options: JsValue,
    ) -> Result<FuturesPager, JsValue> {
        Ok(FuturesPager::new(self.session(
            Operation::ListFutures,
            &params,
            options,
        )?))
    }

    /// Every award of a league (`listAwards(params)`, offset paging).
    pub fn awards(
        &self,
        #[wasm_bindgen(unchecked_param_type = "ListAwardsParams")] params: JsValue,
        #[wasm_bindgen(unchecked_optional_param_type = "PagerOptions")] options: JsValue,
    ) -> Result<AwardsPager, JsValue> {
        Ok(AwardsPager::new(self.session(
            Operation::ListAwards,
            &params,
            options,
        )?))
    }

    /// Every trade of a user (`listProfileTrades(params)`).
    #[wasm_bindgen(js_name = profileTrades)]
    pub fn profile_trades(
        &self,
        #[wasm_bindgen(unchecked_param_type = "ListProfileTradesParams")] params: JsValue,
        #[wasm_bindgen(unchecked_optional_param_type = "PagerOptions")] options: JsValue,
    ) -> Result<ProfileTradesPager, JsValue> {
        Ok(ProfileTradesPager::new(self.session(
            Operation::ListProfileTrades,
            &params,
            options,
        )?))
    }
}
