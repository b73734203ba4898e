//! Who publishes the figure or the result a market settles on, as data:
//! each publisher with its kind, its names written out, its acronyms
//! (matched as written, in capitals) and its web domains. One publisher
//! named two ways ("bls.gov", "the Bureau of Labor Statistics", "BLS")
//! is one source; two publishers are two sources. Read once per market
//! (`facts/publishers.rs`), compared per pair as a bit set.
//!
//! Gathered from the development sets' `resolution_source` fields and
//! the source sentences of their rules texts ("The Source Agency is …",
//! "The resolution source for this market will be …"), and from the
//! publishers the public platforms name for the same series: agencies,
//! exchanges and index providers, leagues and governing bodies, price
//! vendors and oracles, news consensus desks. No pair's words: a
//! publisher is listed with all of its names, whichever a set used.

/// One publisher: its kind, its names (lower-case, whole words), its
/// acronyms (as written, whole words) and its domains (a host is the
/// domain or one of its subdomains).
pub struct Publisher {
    pub kind: &'static str,
    pub names: &'static [&'static str],
    pub acronyms: &'static [&'static str],
    pub domains: &'static [&'static str],
}

const fn p(
    kind: &'static str,
    names: &'static [&'static str],
    acronyms: &'static [&'static str],
    domains: &'static [&'static str],
) -> Publisher {
    Publisher {
        kind,
        names,
        acronyms,
        domains,
    }
}

/// The publishers (see the module doc). At most 128, one bit each.
pub const PUBLISHERS: &[Publisher] = &[
    // Statistical agencies and central banks.
    p(
        "agency",
        &["bureau of labor statistics"],
        &["BLS"],
        &["bls.gov"],
    ),
    p(
        "agency",
        &["bureau of economic analysis"],
        &["BEA"],
        &["bea.gov"],
    ),
    p("agency", &["census bureau"], &[], &["census.gov"]),
    p(
        "agency",
        &["federal reserve", "federal open market committee"],
        &["FOMC"],
        &["federalreserve.gov"],
    ),
    p(
        "agency",
        &["european central bank"],
        &["ECB"],
        &["ecb.europa.eu"],
    ),
    p(
        "agency",
        &["bank of england"],
        &["BoE"],
        &["bankofengland.co.uk"],
    ),
    p(
        "agency",
        &["bank of japan"],
        &["BoJ", "BOJ"],
        &["boj.or.jp"],
    ),
    p(
        "agency",
        &["bank of canada"],
        &["BoC"],
        &["bankofcanada.ca"],
    ),
    p(
        "agency",
        &["banco central do brasil", "central bank of brazil"],
        &["BCB"],
        &["bcb.gov.br"],
    ),
    p(
        "agency",
        &["banco de méxico", "banco de mexico", "bank of mexico"],
        &["Banxico"],
        &["banxico.org.mx"],
    ),
    p("agency", &["eurostat"], &[], &["ec.europa.eu"]),
    p(
        "agency",
        &["office for national statistics"],
        &["ONS"],
        &["ons.gov.uk"],
    ),
    p(
        "agency",
        &["statistics canada"],
        &["StatCan"],
        &["statcan.gc.ca"],
    ),
    p(
        "agency",
        &["australian bureau of statistics"],
        &["ABS"],
        &["abs.gov.au"],
    ),
    p(
        "agency",
        &["statistics bureau of japan"],
        &[],
        &["stat.go.jp"],
    ),
    p(
        "agency",
        &["national bureau of statistics of china"],
        &["NBS"],
        &["stats.gov.cn"],
    ),
    p(
        "agency",
        &["destatis", "federal statistical office"],
        &[],
        &["destatis.de"],
    ),
    p("agency", &["insee"], &["INSEE"], &["insee.fr"]),
    p("agency", &["indec"], &["INDEC"], &["indec.gob.ar"]),
    p(
        "agency",
        &["u.s. treasury", "us treasury", "department of the treasury"],
        &[],
        &["treasury.gov", "fiscaldata.treasury.gov"],
    ),
    p("agency", &["freddie mac"], &["PMMS"], &["freddiemac.com"]),
    p(
        "agency",
        &["energy information administration"],
        &["EIA"],
        &["eia.gov"],
    ),
    p(
        "agency",
        &["american automobile association"],
        &["AAA"],
        &["aaa.com"],
    ),
    // Weather, climate and the earth.
    p(
        "station",
        &["national weather service"],
        &["NWS"],
        &["weather.gov"],
    ),
    p(
        "station",
        &["national hurricane center"],
        &["NHC"],
        &["nhc.noaa.gov"],
    ),
    p(
        "station",
        &["storm prediction center"],
        &["SPC"],
        &["spc.noaa.gov"],
    ),
    p(
        "station",
        &["climate prediction center"],
        &["CPC"],
        &["cpc.ncep.noaa.gov"],
    ),
    p(
        "station",
        &["national centers for environmental information"],
        &["NCEI"],
        &["ncei.noaa.gov"],
    ),
    p(
        "station",
        &["global monitoring laboratory"],
        &["GML"],
        &["gml.noaa.gov"],
    ),
    p(
        "station",
        &["national snow and ice data center"],
        &["NSIDC"],
        &["nsidc.org"],
    ),
    p("station", &["gistemp"], &["GISS"], &["giss.nasa.gov"]),
    p("station", &["met office"], &[], &["metoffice.gov.uk"]),
    p(
        "station",
        &["weather underground", "wunderground"],
        &[],
        &["wunderground.com"],
    ),
    p(
        "station",
        &["united states geological survey", "geological survey"],
        &["USGS"],
        &["usgs.gov"],
    ),
    // Exchanges, index providers, price vendors and oracles.
    p(
        "exchange",
        &["cme group", "chicago mercantile exchange", "nymex", "comex"],
        &["CME"],
        &["cmegroup.com"],
    ),
    p("exchange", &["ice futures"], &[], &["theice.com"]),
    p(
        "exchange",
        &["london metal exchange"],
        &["LME"],
        &["lme.com"],
    ),
    p(
        "exchange",
        &["london bullion market association"],
        &["LBMA"],
        &["lbma.org.uk"],
    ),
    p("exchange", &["nasdaq"], &[], &["nasdaq.com"]),
    p(
        "exchange",
        &["new york stock exchange"],
        &["NYSE"],
        &["nyse.com"],
    ),
    p("exchange", &["korea exchange"], &["KRX"], &["krx.co.kr"]),
    p("exchange", &["singapore exchange"], &["SGX"], &["sgx.com"]),
    p("exchange", &["binance"], &[], &["binance.com"]),
    p("exchange", &["coinbase"], &[], &["coinbase.com"]),
    p("exchange", &["kraken"], &[], &["kraken.com"]),
    p("index", &["s&p dow jones indices"], &[], &["spglobal.com"]),
    p("index", &["ftse russell"], &[], &["lseg.com"]),
    p("index", &["hang seng indexes"], &[], &["hsi.com.hk"]),
    p(
        "index",
        &["cf benchmarks"],
        &["BRTI"],
        &["cfbenchmarks.com"],
    ),
    p("vendor", &["coingecko"], &[], &["coingecko.com"]),
    p("vendor", &["coinmarketcap"], &[], &["coinmarketcap.com"]),
    p(
        "vendor",
        &["companiesmarketcap"],
        &[],
        &["companiesmarketcap.com"],
    ),
    p("vendor", &["defillama"], &[], &["defillama.com"]),
    p("vendor", &["tradingview"], &[], &["tradingview.com"]),
    p("vendor", &["bloomberg"], &[], &["bloomberg.com"]),
    p(
        "oracle",
        &["chainlink"],
        &[],
        &["chain.link", "data.chain.link"],
    ),
    p("oracle", &["pyth"], &[], &["pyth.network"]),
    // Box office, charts and culture.
    p("vendor", &["box office mojo"], &[], &["boxofficemojo.com"]),
    p("vendor", &["the numbers"], &[], &["the-numbers.com"]),
    p("vendor", &["rotten tomatoes"], &[], &["rottentomatoes.com"]),
    p("vendor", &["billboard"], &[], &["billboard.com"]),
    // Polls and the news' consensus.
    p(
        "news",
        &["realclearpolitics", "realclearpolling"],
        &["RCP"],
        &["realclearpolitics.com", "realclearpolling.com"],
    ),
    p("news", &["silver bulletin"], &[], &["natesilver.net"]),
    p(
        "news",
        &["decision desk hq"],
        &["DDHQ"],
        &["decisiondeskhq.com"],
    ),
    p("news", &["associated press"], &["AP"], &["apnews.com"]),
    p("news", &["gallup"], &[], &["gallup.com"]),
    // Leagues and governing bodies.
    p(
        "league",
        &["national football league"],
        &["NFL"],
        &["nfl.com"],
    ),
    p(
        "league",
        &["national basketball association"],
        &["NBA"],
        &["nba.com"],
    ),
    p("league", &["major league baseball"], &["MLB"], &["mlb.com"]),
    p(
        "league",
        &["national hockey league"],
        &["NHL"],
        &["nhl.com"],
    ),
    p(
        "league",
        &["premier league"],
        &["EPL"],
        &["premierleague.com"],
    ),
    p("league", &["fifa"], &["FIFA"], &["fifa.com"]),
    p("league", &["uefa"], &["UEFA"], &["uefa.com"]),
    p(
        "league",
        &["formula 1", "formula one"],
        &["FIA"],
        &["formula1.com", "fia.com"],
    ),
];

const _: () = assert!(PUBLISHERS.len() <= 128);

#[cfg(test)]
mod tests {
    use super::PUBLISHERS;

    #[test]
    fn names_acronyms_and_domains_are_written_as_read() {
        for p in PUBLISHERS {
            assert!(!p.names.is_empty() || !p.acronyms.is_empty());
            assert!(
                p.names
                    .iter()
                    .all(|n| n.to_lowercase() == *n && n.trim() == *n)
            );
            assert!(
                p.domains
                    .iter()
                    .all(|d| d.contains('.') && d.to_lowercase() == *d)
            );
            assert!(p.acronyms.iter().all(|a| a.len() >= 2));
        }
    }
}
