//! Platform and league labels. The wire values are the labels of service.md;
//! display names come from data (`GET /platforms`, league-info).

open_enum!(
    /// A platform label (`platform_a` … `platform_h`). Unknown labels are
    /// kept: the service may add platforms.
    PlatformId, PLATFORM_ID_TS {
        PlatformA = "platform_a",
        PlatformB = "platform_b",
        PlatformC = "platform_c",
        PlatformD = "platform_d",
        PlatformE = "platform_e",
        PlatformF = "platform_f",
        PlatformG = "platform_g",
        PlatformH = "platform_h",
    }
);

open_enum!(
    /// A league label (`league_a` … `league_d`).
    League, LEAGUE_TS {
        LeagueA = "league_a",
        LeagueB = "league_b",
        LeagueC = "league_c",
        LeagueD = "league_d",
    }
);
