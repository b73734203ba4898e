//! `cargo xtask test`: every test of the project, each runner's summary
//! printed, going on after a failure and failing at the end if any did.
//! The step table is `steps`; what the steps run, by what they drive:
//! `rust_checks` (cargo over the workspace), `package_checks` (the npm
//! package), `servers` (steps with servers of their own).

use crate::server::{self, Profile, Server};
use crate::setup;
use crate::util::Result;
use std::time::Instant;
use steps::STEPS;

/// The key the test servers accept.
const TEST_KEY: &str = "pm_test_key";
/// The node suites' key, unlimited: their files run side by side and spend
/// more than 100 a minute together, and a 429 there would test the suites'
/// sum, not their subject (the 429 path is tested with keys of its own:
/// `TWELVE_KEY`, the wasm tests' low keys, tests/node/hostile-server).
const NODE_KEY: &str = "pm_node_key:unlimited";
/// A key of 12 a minute that one node test spends alone: a client held to
/// that budget must never be answered 429.
const TWELVE_KEY: &str = "pm_twelve_key:12";

mod package_checks;
mod rust_checks;
mod servers;
mod steps;

struct Outcome {
    name: &'static str,
    result: Result,
    seconds: f64,
}

/// One step of the run: `group` is the name `--only` takes; `quick`
/// steps make `--quick`, the loop to run before every commit.
struct Step {
    group: &'static str,
    name: &'static str,
    quick: bool,
    run: fn(&mut Run) -> Result,
}

/// What the steps of one run share: the debug server, built once, and the
/// plain test server most steps talk to, started on first use.
#[derive(Default)]
struct Run {
    built: Option<Result>,
    api: Option<std::result::Result<Server, String>>,
}

impl Run {
    fn build_server(&mut self) -> Result {
        self.built
            .get_or_insert_with(|| server::build(Profile::Debug))
            .clone()
    }

    /// The URL of the plain test server (key [`TEST_KEY`]). Its stream
    /// pollers ask ten times as often as a real server's, so a watch
    /// through `/stream` sees a book's change (every 5 s) within one.
    fn api(&mut self) -> Result<String> {
        self.build_server()?;
        let api = self.api.get_or_insert_with(|| {
            Server::start(
                Profile::Debug,
                "127.0.0.1:0",
                &[
                    "--api-key",
                    TEST_KEY,
                    "--api-key",
                    NODE_KEY,
                    "--api-key",
                    TWELVE_KEY,
                    "--stream-interval-scale",
                    "0.1",
                ],
            )
        });
        api.as_ref().map(|s| s.url.clone()).map_err(String::clone)
    }
}

const USAGE: &str = "cargo xtask test [--quick | --only GROUP[,GROUP…] | --list]";

pub fn run(args: &[String]) -> Result {
    let mut chosen: Option<Vec<String>> = None;
    let mut quick = false;
    let mut rest = args.iter();
    while let Some(arg) = rest.next() {
        match arg.as_str() {
            "--list" => {
                for step in STEPS {
                    let mark = if step.quick { "quick" } else { "" };
                    println!("{:<15} {:<6} {}", step.group, mark, step.name);
                }
                return Ok(());
            }
            "--quick" => quick = true,
            "--only" => {
                let groups = rest
                    .next()
                    .ok_or(format!("--only needs a group: {USAGE}"))?;
                let groups: Vec<String> = groups.split(',').map(str::to_owned).collect();
                if let Some(unknown) = groups
                    .iter()
                    .find(|g| !STEPS.iter().any(|s| s.group == **g))
                {
                    return Err(format!(
                        "no step group `{unknown}` (`cargo xtask test --list` shows them)"
                    ));
                }
                chosen = Some(groups);
            }
            other => return Err(format!("unknown option `{other}`: {USAGE}")),
        }
    }
    let selected: Vec<&Step> = STEPS
        .iter()
        .filter(|step| match &chosen {
            Some(groups) => groups.iter().any(|g| g == step.group),
            // The whole run has the wasm32 clippy pass, which includes the
            // native one.
            None if quick => step.quick,
            None => step.group != "clippy-native",
        })
        .collect();

    let started = Instant::now();
    // The quick loop needs no browser, bundler or wasm tool.
    if !quick {
        setup::run_setup()?;
    }
    let mut outcomes = Vec::new();
    let mut run = Run::default();
    for step in selected {
        eprintln!("\n=== {} ===", step.name);
        let step_started = Instant::now();
        let result = (step.run)(&mut run);
        if let Err(e) = &result {
            eprintln!("=== {}: FAILED: {e}", step.name);
        }
        outcomes.push(Outcome {
            name: step.name,
            result,
            seconds: step_started.elapsed().as_secs_f64(),
        });
    }
    drop(run);

    eprintln!(
        "\n=== summary ({:.0} s) ===",
        started.elapsed().as_secs_f64()
    );
    let mut failed = 0;
    for outcome in &outcomes {
        let verdict = if outcome.result.is_ok() {
            "ok  "
        } else {
            "FAIL"
        };
        eprintln!("{verdict} {:>6.1} s  {}", outcome.seconds, outcome.name);
        failed += usize::from(outcome.result.is_err());
    }
    let passed = outcomes.len() - failed;
    println!("xtask: {passed} passed, {failed} failed");
    if failed == 0 {
        Ok(())
    } else {
        Err(format!("{failed} of {} steps failed", outcomes.len()))
    }
}

/// A `--api-key` spec without its limit: the key a client sends.
fn without_limit(spec: &'static str) -> &'static str {
    spec.split(':').next().unwrap_or(spec)
}
