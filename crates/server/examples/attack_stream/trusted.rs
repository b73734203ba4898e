//! Scenario 12 of `main.rs`: the per-address stream cap behind a trusted
//! load balancer (`--trusted-proxy`) counts visitors by their
//! `X-Forwarded-For`, not the balancer's address, and an IPv6 /64 as one
//! visitor.

use crate::*;

/// The load balancer's address, trusted by the proxy.
const BALANCER: &str = "127.0.0.2";
/// Visitors behind the balancer, one stream each: more than the streams
/// one address may hold (`--stream-max-per-address`, 16).
const VISITORS: usize = 20;
/// `--stream-max-per-address`, its default.
const PER_ADDRESS: usize = 16;

pub(crate) async fn trusted_proxy(
    args: &Args,
    report: &Report,
    upstream: SocketAddr,
) -> Result<(), String> {
    let proxy = Proxy::start(
        &args.server,
        upstream,
        &[
            "--trusted-proxy",
            &format!("{BALANCER}/32"),
            "--visitor-misses",
            "60000",
            "--visitor-requests",
            "60000",
        ],
    )?;
    let balancer = from(BALANCER)?;
    let open_as = |visitor: String| {
        let balancer = balancer.clone();
        let addr = proxy.addr;
        async move {
            open(
                &balancer,
                addr,
                &["orderbook:behind-1".to_owned()],
                &[("x-forwarded-for", visitor.as_str())],
            )
            .await
        }
    };
    let mut held = Vec::new();
    let mut refused_v4 = 0;
    for v in 1..=VISITORS {
        let response = open_as(format!("198.51.100.{v}")).await?;
        if response.status() == 200 {
            held.push(read_all(response));
        } else {
            refused_v4 += 1;
        }
    }
    report.rule(refused_v4 == 0, || {
        format!("trusted proxy: {refused_v4} of {VISITORS} visitors behind one balancer refused (each is a visitor of its own)")
    });
    // One visitor on many addresses of one /64: one more stream than the cap.
    let (mut opened_v6, mut refused_v6) = (0, 0);
    for i in 1..=PER_ADDRESS + 1 {
        let response = open_as(format!("2001:db8:1:2::{i:x}")).await?;
        if response.status() == 200 {
            opened_v6 += 1;
            held.push(read_all(response));
        } else {
            refused_v6 += 1;
        }
    }
    report.rule(opened_v6 == PER_ADDRESS && refused_v6 == 1, || {
        format!("trusted proxy: {} addresses of one IPv6 /64 opened {opened_v6} streams ({refused_v6} refused); the /64 is one visitor of {PER_ADDRESS}", PER_ADDRESS + 1)
    });
    report.figure(format!(
        "trusted proxy: {VISITORS} visitors behind one balancer, {} opened; {} addresses of one /64: {opened_v6} opened, {refused_v6} refused",
        VISITORS - refused_v4,
        PER_ADDRESS + 1
    ));
    judge_good(
        report,
        "trusted proxy",
        good_viewer(proxy.addr, "good-lb").await,
    );
    for task in held {
        task.abort();
    }
    Ok(())
}
