//! The floor rules on real meetings (AMI references turned into event streams): the holder is
//! never muted, and a channel is muted (or ducked) at most once per 10 s, backchannel-rich
//! stretches included.

use super::common;

use overtalk::output::live::{LiveEvent, LiveEventKind};
use overtalk_live::rules::{Command, FloorRule, RuleKind, RuleParams};
use overtalk_live::state::FloorState;

/// Folds `events` and 10 ms clock ticks through `rule`; checks after every step that the
/// holder is open; returns each engagement (channel, audio time).
fn engagements(rule: &mut FloorRule, events: &[LiveEvent]) -> Vec<(String, f64)> {
    let mut state = FloorState::new();
    let end = events.last().map_or(0.0, |e| e.decided_s) + 3.0;
    let mut next = 0;
    let mut out = Vec::new();
    let mut tick = 0u64;
    let mut record = |cmds: Vec<Command>, now: f64, rule: &FloorRule, state: &FloorState| {
        for c in cmds {
            if let Command::Set { channel, level } = c {
                if !level.is_open() {
                    out.push((channel, now));
                }
            }
        }
        if let Some(h) = rule.effective_holder(state) {
            let level = rule.levels().get(&h).copied().unwrap_or_default();
            assert!(level.is_open(), "holder {h} not open at {now}: {level:?}");
        }
    };
    loop {
        let now = tick as f64 * 0.01;
        while next < events.len() && events[next].decided_s <= now {
            state.apply(&events[next]);
            let cmds = rule.on_event(&events[next], &state);
            record(cmds, events[next].decided_s, rule, &state);
            next += 1;
        }
        state.advance(now);
        let cmds = rule.on_clock(now, &state);
        record(cmds, now, rule, &state);
        if now > end {
            break;
        }
        tick += 1;
    }
    let released = rule.release_all();
    assert!(rule.levels().values().all(|l| l.is_open()), "{released:?}");
    out
}

/// The most backchannels committed in any 10 s window.
fn densest_backchannels(events: &[LiveEvent]) -> usize {
    let t: Vec<f64> =
        events.iter().filter(|e| e.kind == LiveEventKind::Backchannel).map(|e| e.t_s).collect();
    (0..t.len()).map(|i| t[i..].iter().take_while(|&&x| x < t[i] + 10.0).count()).max().unwrap_or(0)
}

fn check_rate(engaged: &[(String, f64)], cooldown: f64) {
    let mut by_channel: std::collections::BTreeMap<&str, Vec<f64>> = Default::default();
    for (ch, t) in engaged {
        by_channel.entry(ch).or_default().push(*t);
    }
    for (ch, ts) in by_channel {
        for w in ts.windows(2) {
            assert!(w[1] - w[0] >= cooldown - 1e-9, "{ch} engaged at {} and {}", w[0], w[1]);
        }
    }
}

#[test]
fn debate_mute_and_duck_on_ami_meetings_keep_the_holder_open_and_toggle_at_most_every_10_s() {
    let Some(data) = common::shared_data("rules_ami") else { return };
    for (split, meeting) in [("test", "ES2004a"), ("dev", "IB4001"), ("train", "ES2002a")] {
        let events = common::ami_events(&data, split, meeting);
        let dense = densest_backchannels(&events);
        assert!(dense >= 4, "{meeting}: only {dense} backchannels in the densest 10 s");
        for kind in [RuleKind::DebateMute, RuleKind::Duck] {
            let mut rule = FloorRule::new(kind, RuleParams::default(), Vec::new());
            let engaged = engagements(&mut rule, &events);
            assert!(engaged.len() >= 10, "{meeting} {kind:?}: {} engagements", engaged.len());
            check_rate(&engaged, 10.0);
            eprintln!(
                "{meeting} {}: {} engagements, densest backchannels {dense} per 10 s",
                kind.name(),
                engaged.len()
            );
        }
    }
}
