//! Capture from an audio input device through cpal (feature `device`): one input channel per
//! speaker (`--channels A,B,…` names them in order), a fixed buffer size requested and the one
//! obtained logged, every callback's samples cut into fixed-size blocks for the
//! [`BlockSink`] — the path a replay takes too.
//!
//! ```text
//! cpal callback (interleaved f32) ─► de-interleave ─► fixed blocks ─► BlockSink::push (never waits)
//! stream error / device gone      ─► SourceEnd::Vanished ─► the session ends, record written
//! ```

use std::sync::mpsc::channel;
use std::time::Duration;

use anyhow::{anyhow, bail, Context, Result};
use cpal::traits::{DeviceTrait, HostTrait, StreamTrait};

use crate::source::{BlockCutter, BlockSink, JoinOnStop, Running, Source, SourceEnd};

/// An input device, opened for the named channels.
#[derive(Debug)]
pub struct Device {
    device_name: Option<String>,
    names: Vec<String>,
    rate: u32,
    device_channels: u16,
    block_frames: usize,
    buffer_frames: u32,
}

/// The names of the input devices of the default host.
pub fn input_devices() -> Result<Vec<String>> {
    let host = cpal::default_host();
    let devices = host.input_devices().context("listing the input devices")?;
    Ok(devices.filter_map(|d| d.name().ok()).collect())
}

fn find(name: Option<&str>) -> Result<cpal::Device> {
    let host = cpal::default_host();
    match name {
        None => host.default_input_device().ok_or_else(|| anyhow!("no default input device")),
        Some(want) => {
            let mut devices = host.input_devices().context("listing the input devices")?;
            devices.find(|d| d.name().is_ok_and(|n| n == want)).ok_or_else(|| {
                let known = input_devices().unwrap_or_default().join(", ");
                anyhow!("no input device named {want:?} (found: {known})")
            })
        }
    }
}

impl Device {
    /// Opens `device` (the default input device when `None`) for `names.len()` channels,
    /// requesting a buffer of `buffer_frames` samples per callback; blocks of `block_frames`
    /// go to the session.
    pub fn open(
        device: Option<&str>,
        names: &[String],
        block_frames: usize,
        buffer_frames: u32,
    ) -> Result<Device> {
        if names.is_empty() {
            bail!("--channels names no speaker");
        }
        let d = find(device)?;
        let config =
            d.default_input_config().context("reading the device's input configuration")?;
        if usize::from(config.channels()) < names.len() {
            bail!(
                "the device has {} input channels, {} speakers were named",
                config.channels(),
                names.len()
            );
        }
        Ok(Device {
            device_name: device.map(str::to_owned),
            names: names.to_vec(),
            rate: config.sample_rate().0,
            device_channels: config.channels(),
            block_frames,
            buffer_frames,
        })
    }
}

impl Source for Device {
    fn names(&self) -> &[String] {
        &self.names
    }

    fn rate(&self) -> u32 {
        self.rate
    }

    fn block_frames(&self) -> usize {
        self.block_frames
    }

    fn lossless(&self) -> bool {
        false
    }

    fn start(self: Box<Self>, sink: BlockSink) -> Result<Box<dyn Running>> {
        // cpal's stream is not `Send`: it is built, played and dropped on a thread of its own.
        let (ready_tx, ready_rx) = channel::<Result<()>>();
        let handle =
            std::thread::Builder::new().name("overtalk-capture".into()).spawn(move || {
                let me = *self;
                let k = me.names.len();
                let stride = usize::from(me.device_channels);
                let n = me.block_frames;
                let d = match find(me.device_name.as_deref()) {
                    Ok(d) => d,
                    Err(e) => {
                        let _ = ready_tx.send(Err(e));
                        return;
                    }
                };
                let config = cpal::StreamConfig {
                    channels: me.device_channels,
                    sample_rate: cpal::SampleRate(me.rate),
                    buffer_size: cpal::BufferSize::Fixed(me.buffer_frames),
                };
                let requested = config_frames(&config);
                let data_sink = sink.clone();
                let mut cutter = BlockCutter::new(k, n);
                let mut logged = false;
                let (gone_tx, gone_rx) = channel::<String>();
                let stream = d.build_input_stream(
                    &config,
                    move |data: &[f32], _: &cpal::InputCallbackInfo| {
                        if !logged {
                            logged = true;
                            eprintln!(
                                "overtalk live: requested {requested} samples per buffer, got {}",
                                data.len() / stride.max(1)
                            );
                        }
                        for frame in data.chunks_exact(stride) {
                            for (c, &v) in frame.iter().take(k).enumerate() {
                                cutter.channel(c).push(v);
                            }
                        }
                        while let Some(slices) = cutter.next_block(false) {
                            data_sink.push(&slices);
                        }
                    },
                    move |err| {
                        let _ = gone_tx.send(err.to_string());
                    },
                    Some(Duration::from_secs(2)),
                );
                let stream = match stream.context("opening the input stream").and_then(|s| {
                    s.play().context("starting the input stream")?;
                    Ok(s)
                }) {
                    Ok(s) => s,
                    Err(e) => {
                        let _ = ready_tx.send(Err(e));
                        return;
                    }
                };
                let _ = ready_tx.send(Ok(()));
                let why = loop {
                    if sink.stopped() {
                        break SourceEnd::Stopped;
                    }
                    match gone_rx.recv_timeout(Duration::from_millis(100)) {
                        Ok(e) => break SourceEnd::Vanished(e),
                        Err(std::sync::mpsc::RecvTimeoutError::Timeout) => {}
                        Err(std::sync::mpsc::RecvTimeoutError::Disconnected) => {
                            break SourceEnd::Vanished("the input stream closed".to_owned())
                        }
                    }
                };
                drop(stream);
                sink.end(why);
            })?;
        ready_rx.recv().map_err(|_| anyhow!("the capture thread ended before starting"))??;
        Ok(Box::new(JoinOnStop(Some(handle))))
    }
}

fn config_frames(c: &cpal::StreamConfig) -> String {
    match c.buffer_size {
        cpal::BufferSize::Fixed(n) => n.to_string(),
        cpal::BufferSize::Default => "the default".to_owned(),
    }
}
