//! The mock obs-websocket v5 server on its own, for checking it against a real client
//! (`scripts/live/obsws_check.sh`): `cargo run -p overtalk-live --example mock_obs -- ADDR
//! [PASSWORD]`; prints `listening ws://ADDR` and serves until killed. Inputs: `Mic A`, `Mic B`.

fn main() -> anyhow::Result<()> {
    let mut args = std::env::args().skip(1);
    let addr = args.next().unwrap_or_else(|| "127.0.0.1:4455".into());
    let password = args.next();
    let runtime = tokio::runtime::Builder::new_current_thread().enable_all().build()?;
    runtime.block_on(async {
        let mock =
            overtalk_live::obs_mock::spawn(&addr, password.as_deref(), &["Mic A", "Mic B"]).await?;
        println!("listening {}", mock.url());
        tokio::signal::ctrl_c().await?;
        anyhow::Ok(())
    })
}
