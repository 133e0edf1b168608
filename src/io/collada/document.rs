//! Reading COLLADA's building blocks: elements by id, whitespace-separated number lists, and
//! `<source>` arrays with their accessors' strides.

use std::collections::HashMap;

use glam::DMat4;
use roxmltree::Node;

/// Every element that has an `id`, for `#id` references.
pub struct Ids<'a, 'input> {
    by_id: HashMap<&'a str, Node<'a, 'input>>,
}

impl<'a, 'input> Ids<'a, 'input> {
    pub fn new(root: Node<'a, 'input>) -> Self {
        let by_id = root
            .descendants()
            .filter_map(|n| Some((n.attribute("id")?, n)))
            .collect();
        Self { by_id }
    }

    /// The element a `#id` URL (or a bare id) names.
    pub fn get(&self, url: &str) -> Option<Node<'a, 'input>> {
        self.by_id
            .get(url.strip_prefix('#').unwrap_or(url))
            .copied()
    }
}

/// The first child element called `name`.
pub fn child<'a, 'input>(node: Node<'a, 'input>, name: &str) -> Option<Node<'a, 'input>> {
    node.children().find(|c| c.has_tag_name(name))
}

/// Every child element called `name`.
pub fn children<'a, 'input: 'a>(
    node: Node<'a, 'input>,
    name: &'a str,
) -> impl Iterator<Item = Node<'a, 'input>> + 'a {
    node.children().filter(move |c| c.has_tag_name(name))
}

/// The numbers in an element's text; a word that is not a number is an error. Exporters
/// run under a comma-decimal locale write `1,5` for 1.5, which is read as meant.
pub fn floats(node: Node<'_, '_>) -> Result<Vec<f64>, String> {
    node.text()
        .unwrap_or("")
        .split_ascii_whitespace()
        .map(|w| {
            w.parse::<f64>()
                .or_else(|e| match w.matches(',').count() {
                    1 if !w.contains('.') => w.replace(',', ".").parse(),
                    _ => Err(e),
                })
                .map_err(|_| format!("'{w}' in <{}> is not a number", node.tag_name().name()))
        })
        .collect()
}

/// Whole numbers in an element's text (indices, counts).
pub fn ints(node: Node<'_, '_>) -> Result<Vec<i64>, String> {
    node.text()
        .unwrap_or("")
        .split_ascii_whitespace()
        .map(|w| {
            w.parse::<i64>().map_err(|_| {
                format!(
                    "'{w}' in <{}> is not a whole number",
                    node.tag_name().name()
                )
            })
        })
        .collect()
}

/// A 4×4 matrix written row by row, as COLLADA writes every matrix.
pub fn matrix(values: &[f64]) -> Option<DMat4> {
    let rows: [f64; 16] = values.get(..16)?.try_into().ok()?;
    let m = DMat4::from_cols_array(&rows).transpose();
    m.is_finite().then_some(m)
}

/// A `<source>`: its numbers (or names) and how many make one element.
pub struct Source {
    pub floats: Vec<f64>,
    pub names: Vec<String>,
    pub stride: usize,
}

impl Source {
    pub fn read(node: Node<'_, '_>) -> Result<Self, String> {
        let stride = child(node, "technique_common")
            .and_then(|t| child(t, "accessor"))
            .and_then(|a| a.attribute("stride"))
            .and_then(|s| s.parse().ok())
            .filter(|&s: &usize| s > 0)
            .unwrap_or(1);
        let mut source = Self {
            floats: Vec::new(),
            names: Vec::new(),
            stride,
        };
        if let Some(array) = child(node, "float_array") {
            source.floats = floats(array)?;
        } else if let Some(array) = child(node, "Name_array").or_else(|| child(node, "IDREF_array"))
        {
            source.names = array
                .text()
                .unwrap_or("")
                .split_ascii_whitespace()
                .map(str::to_owned)
                .collect();
        }
        Ok(source)
    }

    /// Element `i` (`stride` numbers), if there.
    pub fn element(&self, i: usize) -> Option<&[f64]> {
        self.floats.get(i * self.stride..(i + 1) * self.stride)
    }

    pub fn len(&self) -> usize {
        if self.names.is_empty() {
            self.floats.len() / self.stride
        } else {
            self.names.len()
        }
    }
}

/// The `<input>`s of a primitive or skin part: semantic, source URL, offset, set.
pub struct Input<'a> {
    pub semantic: &'a str,
    pub source: &'a str,
    pub offset: usize,
    pub set: usize,
}

pub fn inputs<'a>(node: Node<'a, '_>) -> Vec<Input<'a>> {
    children(node, "input")
        .filter_map(|i| {
            Some(Input {
                semantic: i.attribute("semantic")?,
                source: i.attribute("source")?,
                offset: i
                    .attribute("offset")
                    .and_then(|o| o.parse().ok())
                    .unwrap_or(0),
                set: i.attribute("set").and_then(|o| o.parse().ok()).unwrap_or(0),
            })
        })
        .collect()
}
