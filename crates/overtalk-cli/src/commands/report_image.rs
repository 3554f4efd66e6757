//! `overtalk report … -o clip.svg|clip.png` (or `--format svg|png`): the conversation as a
//! picture, for articles and posts. The flags of the picture, and the writing of it; the
//! drawing is `overtalk::report::svg`, the rasterising `overtalk::report::png`.

use std::path::Path;

use anyhow::{bail, Context, Result};
use overtalk::report::svg::{conversation_svg, ImageOptions, Layout, Theme};

use crate::input::conversations::Analyzed;
use crate::named_arg::{named, named_with_help};

/// What `report` writes.
#[derive(Debug, Clone, Copy, clap::ValueEnum, PartialEq, Eq)]
pub enum ReportFormat {
    /// The self-contained HTML report.
    Html,
    /// The conversation as an SVG picture.
    Svg,
    /// The conversation as a PNG picture (rendered with a bundled font).
    Png,
}

impl ReportFormat {
    /// The format named by `--format`, else by the output file's extension, else HTML. An
    /// extension that names another format (`-o report.pdf`, `-o card.jpg`, `-o x.json`) is
    /// an error: the HTML written into it would open as nothing, or as a broken file, where
    /// the name promises that format. Other names (`-o report`, `-o out.txt`) get HTML.
    pub fn choose(
        flag: Option<ReportFormat>,
        output: Option<&Path>,
    ) -> anyhow::Result<ReportFormat> {
        if let Some(f) = flag {
            return Ok(f);
        }
        let ext =
            output.and_then(Path::extension).map(|e| e.to_string_lossy().to_ascii_lowercase());
        Ok(match ext.as_deref() {
            Some("svg") => ReportFormat::Svg,
            Some("png") => ReportFormat::Png,
            Some(other) if OTHER_FORMATS.contains(&other) => anyhow::bail!(
                "{}: the .{other} extension names a format this command does not write (it \
                 writes html, svg, png); give --format or name the output after one of them",
                output.map(Path::display).map(|d| d.to_string()).unwrap_or_default()
            ),
            _ => ReportFormat::Html,
        })
    }
}

/// Extensions of formats `report` does not write, refused rather than filled with HTML.
const OTHER_FORMATS: [&str; 15] = [
    "pdf", "jpg", "jpeg", "gif", "webp", "bmp", "tif", "tiff", "eps", "ps", "json", "csv", "tsv",
    "md", "docx",
];

/// The line of `--help` under each `--layout` value.
fn layout_help(layout: Layout) -> Option<&'static str> {
    Some(match layout {
        Layout::Timeline => "Title, legend and timeline",
        Layout::Card => {
            "The summary sentences above the timeline, sized for social posts (1200 × 675 px)"
        }
    })
}

/// The flags of `report --format svg|png`.
#[derive(Debug, clap::Args)]
pub struct ImageArgs {
    /// Picture: start of the window shown (seconds, or m:ss / h:mm:ss). (`--from` names the
    /// input format, as in every subcommand.)
    #[arg(long, value_name = "TIME", value_parser = crate::time_arg::clock_millis)]
    start: Option<i64>,
    /// Picture: end of the window shown (seconds, or m:ss / h:mm:ss).
    #[arg(long, value_name = "TIME", value_parser = crate::time_arg::clock_millis)]
    end: Option<i64>,
    /// Picture: width in pixels.
    #[arg(long, value_name = "PX", default_value_t = DEFAULT_WIDTH)]
    width: u32,
    /// Picture: colour theme.
    #[arg(long, value_parser = named::<Theme>(), default_value_t = Theme::Light)]
    theme: Theme,
    /// Picture: the timeline alone, or the card (summary sentences and timeline).
    #[arg(long, value_parser = named_with_help(layout_help), default_value_t = Layout::Timeline)]
    layout: Layout,
    /// Picture: a line under the title (where the data come from, say).
    #[arg(long, value_name = "TEXT")]
    subtitle: Option<String>,
    /// PNG: device pixels per picture pixel (2 for high-density screens).
    #[arg(long, value_name = "FACTOR", default_value_t = 1.0)]
    scale: f32,
}

/// The picture's width without `--width`, in pixels.
const DEFAULT_WIDTH: u32 = 1200;

impl ImageArgs {
    /// The picture flags given other values than their defaults, as typed (`--layout card`):
    /// the HTML report draws no picture, so `report` refuses them there instead of writing a
    /// page that silently leaves them out.
    pub fn given(&self) -> Vec<&'static str> {
        let mut given = Vec::new();
        let flags: [(&'static str, bool); 7] = [
            ("--start", self.start.is_some()),
            ("--end", self.end.is_some()),
            ("--width", self.width != DEFAULT_WIDTH),
            ("--theme", self.theme != Theme::Light),
            ("--layout", self.layout != Layout::Timeline),
            ("--subtitle", self.subtitle.is_some()),
            ("--scale", self.scale != 1.0),
        ];
        for (flag, set) in flags {
            if set {
                given.push(flag);
            }
        }
        given
    }
}

/// The picture of the one conversation in `analyzed`, as SVG text or PNG bytes.
pub fn render(
    analyzed: &[Analyzed],
    args: &ImageArgs,
    title: Option<&str>,
    format: ReportFormat,
) -> Result<Vec<u8>> {
    let one = match analyzed {
        [one] => one,
        [] => bail!("a picture shows one conversation; the inputs hold none"),
        many => bail!(
            "a picture shows one conversation; the inputs hold {} ({}): name one file",
            many.len(),
            many.iter().map(|a| a.label.as_str()).take(4).collect::<Vec<_>>().join(", ")
        ),
    };
    // A window that shows nothing of the conversation is a mistake, not an empty picture.
    let c = &one.analysis.conversation;
    if let (Some(start), Some(from)) = (c.start, args.start) {
        let end = start.get() + c.span.get();
        if from >= end {
            bail!(
                "--start {} is at or after the end of the conversation ({} s)",
                from as f64 / 1000.0,
                end as f64 / 1000.0
            );
        }
    }
    if let (Some(start), Some(to)) = (c.start, args.end) {
        if to <= start.get() {
            bail!(
                "--end {} is at or before the start of the conversation ({} s)",
                to as f64 / 1000.0,
                start.get() as f64 / 1000.0
            );
        }
    }
    let options = ImageOptions {
        title: title.map(str::to_owned),
        subtitle: args.subtitle.clone(),
        from: args.start,
        to: args.end,
        width: args.width,
        theme: args.theme,
        layout: args.layout,
    };
    let svg = conversation_svg(&one.label, &one.analysis, &options)
        .with_context(|| format!("drawing {}", one.label))?;
    Ok(match format {
        ReportFormat::Png => overtalk::report::png::svg_to_png(&svg, args.scale)
            .with_context(|| format!("drawing {}", one.label))?,
        _ => svg.into_bytes(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn clock_times_and_formats_from_names() {
        assert_eq!(crate::time_arg::clock_millis("83.5"), Ok(83_500));
        assert_eq!(crate::time_arg::clock_millis("1:23.5"), Ok(83_500));
        assert_eq!(crate::time_arg::clock_millis("1:00:00"), Ok(3_600_000));
        assert!(crate::time_arg::clock_millis("-1").is_err());
        assert!(crate::time_arg::clock_millis("a:b").is_err());
        assert!(crate::time_arg::clock_millis("99:99").is_err());
        assert!(crate::time_arg::clock_millis("1:60").is_err());
        assert_eq!(crate::time_arg::clock_millis("99:59"), Ok(5_999_000));
        let choose = |flag, out: Option<&str>| {
            ReportFormat::choose(flag, out.map(Path::new)).map_err(|e| e.to_string())
        };
        assert_eq!(choose(None, Some("x.PNG")), Ok(ReportFormat::Png));
        assert_eq!(choose(None, Some("x.svg")), Ok(ReportFormat::Svg));
        assert_eq!(choose(None, None), Ok(ReportFormat::Html));
        assert_eq!(choose(None, Some("report")), Ok(ReportFormat::Html));
        assert_eq!(choose(None, Some("x.htm")), Ok(ReportFormat::Html));
        assert_eq!(choose(None, Some("out.txt")), Ok(ReportFormat::Html));
        let svg = Some(ReportFormat::Svg);
        assert_eq!(choose(svg, Some("x.png")), Ok(ReportFormat::Svg));
        assert_eq!(choose(Some(ReportFormat::Html), Some("x.pdf")), Ok(ReportFormat::Html));
        assert_eq!(
            choose(None, Some("talk.PDF")),
            Err("talk.PDF: the .pdf extension names a format this command does not write (it \
                 writes html, svg, png); give --format or name the output after one of them"
                .to_owned())
        );
        assert!(choose(None, Some("card.jpg")).is_err());
    }
}
