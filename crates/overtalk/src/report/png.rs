//! The conversation picture as PNG: the SVG of [`super::svg`] rasterised by resvg, with the
//! bundled DejaVu Sans as the only font, so the image is the same on every machine whatever
//! fonts it has (system fonts are never loaded). The fonts' licence is
//! `assets/fonts/LICENSE-DejaVu.txt`.

use std::sync::{Arc, OnceLock};

use resvg::tiny_skia;
use resvg::usvg;

use crate::error::{Error, Result};

const REGULAR: &[u8] = include_bytes!("assets/fonts/DejaVuSans.ttf");
const BOLD: &[u8] = include_bytes!("assets/fonts/DejaVuSans-Bold.ttf");

/// The font database with the bundled fonts, made once.
fn fonts() -> Arc<usvg::fontdb::Database> {
    static FONTS: OnceLock<Arc<usvg::fontdb::Database>> = OnceLock::new();
    FONTS
        .get_or_init(|| {
            let mut db = usvg::fontdb::Database::new();
            db.load_font_data(REGULAR.to_vec());
            db.load_font_data(BOLD.to_vec());
            db.set_sans_serif_family(super::svg::FONT_FAMILY);
            Arc::new(db)
        })
        .clone()
}

/// The most pixels a PNG is drawn with: 100 million, 400 MB of RGBA (10 000 px wide at scale
/// 4 leaves 2 500 px of height).
pub const MAX_PIXELS: u64 = 100_000_000;

/// `svg` as PNG bytes, at `scale` device pixels per SVG pixel (1 or 2; 2 for sharp text on
/// high-density screens).
pub fn svg_to_png(svg: &str, scale: f32) -> Result<Vec<u8>> {
    if !(0.25..=4.0).contains(&scale) {
        return Err(Error::invalid(format!("PNG scale {scale}: give 0.25 to 4")));
    }
    let options = usvg::Options {
        font_family: super::svg::FONT_FAMILY.to_owned(),
        fontdb: fonts(),
        ..usvg::Options::default()
    };
    let tree = usvg::Tree::from_str(svg, &options)
        .map_err(|e| Error::invalid(format!("rendering the picture: {e}")))?;
    let size = tree.size();
    let (w, h) = ((size.width() * scale).ceil() as u32, (size.height() * scale).ceil() as u32);
    // The picture grows a lane per speaker: thousands of speakers made it hundreds of thousands
    // of pixels tall, gigabytes to draw. Refused before a pixel is allocated.
    let pixels = u64::from(w) * u64::from(h);
    if pixels > MAX_PIXELS {
        return Err(Error::limit(format!(
            "a {w} × {h} px picture is more than the limit of {} million pixels ({:.1} GB to draw): give a smaller --width or --scale, a shorter window (--start, --end), or write SVG (--format svg)",
            MAX_PIXELS / 1_000_000,
            (pixels * 4) as f64 / 1e9
        )));
    }
    let mut pixmap = tiny_skia::Pixmap::new(w, h)
        .ok_or_else(|| Error::invalid(format!("a {w} × {h} px image is too large")))?;
    resvg::render(&tree, tiny_skia::Transform::from_scale(scale, scale), &mut pixmap.as_mut());
    pixmap.encode_png().map_err(|e| Error::invalid(format!("encoding the PNG: {e}")))
}
