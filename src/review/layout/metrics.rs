//! The sizes a diagram is laid out with that the drawing needs too, in pixels: text metrics, node
//! padding, shape insets, group and label boxes.
//!
//! Why: `src/static/diagram.js` draws text and shapes inside the boxes computed here, so both
//! sides must use the same numbers; `tools::view_diagram` hands these to the MCP Apps view.
//! What not: the layout's own spacing (gaps between layers and nodes, the margin), which the
//! drawing never needs and which lives with the stage that uses it.

/// Text metrics shared with the renderer, in pixels. Widths assume about 0.6em per character.
pub const TITLE_FONT_PX: f64 = 13.0;
pub const TITLE_LINE_PX: f64 = 17.0;
pub const TITLE_CHAR_PX: f64 = 7.8;
pub const ROW_FONT_PX: f64 = 11.0;
pub const ROW_LINE_PX: f64 = 14.0;
pub const ROW_CHAR_PX: f64 = 6.6;
/// Space between a node's border and its text.
pub const NODE_PAD_X: f64 = 12.0;
pub const NODE_PAD_Y: f64 = 9.0;
/// Space between the title (and file) and the `lines` rows.
pub const ROWS_GAP_PX: f64 = 4.0;
/// How far a `decision` hexagon's side points reach in from its box.
pub const DECISION_INSET_PX: f64 = 14.0;
/// The vertical radius of a `data` cylinder's ends.
pub const DATA_CAP_PX: f64 = 7.0;
/// Padding of a group box around its nodes, and the band for its title above them.
pub const GROUP_PAD_PX: f64 = 14.0;
pub const GROUP_TITLE_PX: f64 = 20.0;
/// Edge labels: font, character width, horizontal padding and box height.
pub const LABEL_FONT_PX: f64 = 11.0;
pub const LABEL_CHAR_PX: f64 = 6.6;
pub const LABEL_PAD_X: f64 = 5.0;
pub const LABEL_H_PX: f64 = 16.0;
/// How far a self-loop reaches out of its node's right side.
pub const SELF_LOOP_PX: f64 = 22.0;

/// The text metrics the layout was computed for, so the drawing's fonts match the boxes, and the
/// sizes of the shapes it draws (`src/static/diagram.js`, for the view and the review page, which
/// embeds them too). Written out once as the JSON both embed; a test checks it against
/// the constants above.
pub const METRICS: &str = r#"{"titleFontPx":13,"titleLinePx":17,"rowFontPx":11,"rowLinePx":14,"rowCharPx":6.6,"rowsGapPx":4,"nodePadX":12,"nodePadY":9,"labelFontPx":11,"labelCharPx":6.6,"labelPadX":5,"labelHPx":16,"groupTitlePx":20,"decisionInsetPx":14,"dataCapPx":7}"#;
