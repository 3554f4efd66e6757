//! A command hook (`--hook CMD`): every change and cue runs `sh -c CMD` with what happened in
//! its environment, for devices no other actuator reaches (Bitfocus Companion's HTTP API through
//! curl, a GPIO, a log):
//!
//! | variable | value |
//! | --- | --- |
//! | `OVERTALK_ACTION` | `mute`, `unmute`, `duck`, `unduck`, `cue` |
//! | `OVERTALK_CHANNEL` | the speaker (empty for a cue about nobody) |
//! | `OVERTALK_DUCK_DB` | how far the channel is lowered now (0 when not ducked) |
//! | `OVERTALK_TEXT` | the cue's text (empty otherwise) |
//!
//! Exit status 0 is success. A command still running after the attempt timeout is killed and
//! reported as failed.

use std::process::Stdio;
use std::sync::Arc;
use std::time::{Duration, Instant};

use super::{action_name, Actuator, Attempt};
use crate::failsafe::Releaser;
use crate::state::ChannelLevel;

/// The hook actuator.
pub struct Hook {
    command: String,
}

impl Hook {
    /// Runs `command` with `sh -c`.
    pub fn new(command: &str) -> Hook {
        Hook { command: command.to_owned() }
    }

    fn command(
        &self,
        action: &str,
        channel: &str,
        duck_db: f64,
        text: &str,
    ) -> std::process::Command {
        let mut c = std::process::Command::new("sh");
        c.arg("-c")
            .arg(&self.command)
            .env("OVERTALK_ACTION", action)
            .env("OVERTALK_CHANNEL", channel)
            .env("OVERTALK_DUCK_DB", format!("{duck_db}"))
            .env("OVERTALK_TEXT", text)
            .stdin(Stdio::null())
            .stdout(Stdio::null());
        c
    }

    async fn run(&self, action: &str, channel: &str, duck_db: f64, text: &str) -> Attempt {
        let target = format!("hook {action} {channel}");
        let mut command =
            tokio::process::Command::from(self.command(action, channel, duck_db, text));
        command.kill_on_drop(true);
        match command.status().await {
            Ok(status) if status.success() => Ok(Some(target)),
            Ok(status) => Err((target, format!("the hook exited with {status}"))),
            Err(e) => Err((target, format!("the hook did not start: {e}"))),
        }
    }
}

impl Actuator for Hook {
    async fn set_level(&mut self, channel: &str, from: ChannelLevel, to: ChannelLevel) -> Attempt {
        self.run(action_name(from, to), channel, to.duck_db, "").await
    }

    async fn cue(&mut self, channel: Option<&str>, text: &str) -> Attempt {
        self.run("cue", channel.unwrap_or(""), 0.0, text).await
    }

    fn releaser(&self) -> Releaser {
        let hook = Hook::new(&self.command);
        Arc::new(move |channels: &[(String, ChannelLevel)], deadline: Instant| {
            hook.release_blocking(channels, deadline);
        })
    }
}

impl Hook {
    /// Runs the unmute (unduck) command of each channel in turn; one still running at
    /// `deadline` is killed, and the channels after it are not tried.
    fn release_blocking(&self, channels: &[(String, ChannelLevel)], deadline: Instant) {
        for (channel, from) in channels {
            if Instant::now() >= deadline {
                return;
            }
            let action = action_name(*from, ChannelLevel::OPEN);
            let Ok(mut child) = self.command(action, channel, 0.0, "").spawn() else { continue };
            while Instant::now() < deadline {
                if let Ok(Some(_)) = child.try_wait() {
                    break;
                }
                std::thread::sleep(Duration::from_millis(5));
            }
            if Instant::now() >= deadline {
                let _ = child.kill();
                let _ = child.wait();
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn the_hook_sees_the_action_in_its_environment() {
        let dir = tempfile::tempdir().unwrap();
        let log = dir.path().join("log");
        let cmd = format!(
            "echo \"$OVERTALK_ACTION $OVERTALK_CHANNEL $OVERTALK_DUCK_DB $OVERTALK_TEXT\" >> {}",
            log.display()
        );
        let mut hook = Hook::new(&cmd);
        let muted = ChannelLevel { muted: true, duck_db: 0.0 };
        assert_eq!(
            hook.set_level("B", ChannelLevel::OPEN, muted).await,
            Ok(Some("hook mute B".into()))
        );
        assert_eq!(hook.cue(Some("B"), "too long").await, Ok(Some("hook cue B".into())));
        hook.releaser()(&[("B".into(), muted)], Instant::now() + Duration::from_millis(500));
        assert_eq!(
            std::fs::read_to_string(&log).unwrap(),
            "mute B 0 \ncue B 0 too long\nunmute B 0 \n"
        );
        let mut failing = Hook::new("exit 3");
        assert_eq!(
            failing.set_level("B", ChannelLevel::OPEN, muted).await,
            Err(("hook mute B".into(), "the hook exited with exit status: 3".into()))
        );
    }
}
