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
    let mut pixmap = tiny_skia::Pixmap::new(w, h)
        .ok_or_else(|| Error::invalid(format!("a {w} × {h} px image is too large")))?;
    resvg::render(&tree, tiny_skia::Transform::from_scale(scale, scale), &mut pixmap.as_mut());
    pixmap.encode_png().map_err(|e| Error::invalid(format!("encoding the PNG: {e}")))
}
