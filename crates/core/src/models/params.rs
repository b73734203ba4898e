//! Value sets of request parameters that are not values of a resource.

open_enum!(
    /// `sort` of `GET /markets` (a choice of this project: the spec names no
    /// sort parameter; these are the fields users of such an API sort by).
    MarketSort, MARKET_SORT_TS {
        Volume24h = "volume_24h",
        Volume7d = "volume_7d",
        VolumeTotal = "volume_total",
        Liquidity = "liquidity",
        OpenInterest = "open_interest",
        CreatedAt = "created_at",
        TradingEndAt = "trading_end_at",
    }
);

open_enum!(
    /// `order` of a sorted list.
    SortOrder, SORT_ORDER_TS {
        Asc = "asc",
        Desc = "desc",
    }
);
