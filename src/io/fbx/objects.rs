//! The object graph of an FBX document: objects keyed by id (7.x) or by name (6.x), the
//! connections between them, and their typed properties.

use std::collections::HashMap;

use super::tree::{Node, Value};

/// An object's key as connections name it: the 64-bit id as text (7.x) or `Class::Name` (6.x).
pub type Key = String;

pub struct Object<'a> {
    pub node: &'a Node,
    /// `Geometry`, `Model`, `Deformer`, `Material`, `Pose`, …
    pub class: &'a str,
    /// The last string value: `Mesh`, `LimbNode`, `Null`, `Skin`, `Cluster`, `BindPose`, …
    pub kind: &'a str,
    /// The user's name without the class tag.
    pub name: String,
}

pub struct Document<'a> {
    pub objects: HashMap<Key, Object<'a>>,
    /// Keys in file order, so that results do not depend on hashing.
    pub order: Vec<Key>,
    /// `(child, parent)` connections, in file order.
    pub links: Vec<(Key, Key)>,
    /// `(child, parent, property)` object-to-property connections: a curve node driving a
    /// model's `Lcl Rotation`, a curve driving a node's `d|X`.
    pub property_links: Vec<(Key, Key, String)>,
}

impl<'a> Document<'a> {
    pub fn new(top: &'a [Node]) -> Self {
        let mut objects = HashMap::new();
        let mut order = Vec::new();
        if let Some(list) = top.iter().find(|n| n.name == "Objects") {
            for node in &list.children {
                let Some(key) = node.values.first().and_then(key) else {
                    continue;
                };
                let tagged = node
                    .values
                    .iter()
                    .find_map(|v| match v {
                        Value::Str(s) => Some(s.as_str()),
                        _ => None,
                    })
                    .unwrap_or("");
                let kind = node
                    .values
                    .iter()
                    .skip(1)
                    .rev()
                    .find_map(|v| match v {
                        Value::Str(s) => Some(s.as_str()),
                        _ => None,
                    })
                    .unwrap_or("");
                if objects.contains_key(&key) {
                    continue;
                }
                order.push(key.clone());
                objects.insert(
                    key,
                    Object {
                        node,
                        class: node.name.as_str(),
                        kind,
                        name: plain_name(tagged),
                    },
                );
            }
        }
        let mut links = Vec::new();
        let mut property_links = Vec::new();
        if let Some(list) = top.iter().find(|n| n.name == "Connections") {
            for c in &list.children {
                if !matches!(c.name.as_str(), "C" | "Connect") {
                    continue;
                }
                // Object-to-object and object-to-property links both attach a child to its
                // parent object; the property (a texture's slot) is not needed here.
                let (Some(child), Some(parent)) =
                    (c.values.get(1).and_then(key), c.values.get(2).and_then(key))
                else {
                    continue;
                };
                if let Some(property) = c.str(3) {
                    property_links.push((child.clone(), parent.clone(), property.to_owned()));
                }
                links.push((child, parent));
            }
        }
        Self {
            objects,
            order,
            links,
            property_links,
        }
    }

    /// The objects connected under `parent`, of `class`, in file order.
    pub fn children_of(&self, parent: &str, class: &str) -> Vec<&Key> {
        self.links
            .iter()
            .filter(|(c, p)| p == parent && self.objects.get(c).is_some_and(|o| o.class == class))
            .map(|(c, _)| c)
            .collect()
    }

    /// The objects `child` is connected under, of `class`, in file order.
    pub fn parents_of(&self, child: &str, class: &str) -> Vec<&Key> {
        self.links
            .iter()
            .filter(|(c, p)| c == child && self.objects.get(p).is_some_and(|o| o.class == class))
            .map(|(_, p)| p)
            .collect()
    }
}

fn key(value: &Value) -> Option<Key> {
    match value {
        Value::Int(i) => Some(i.to_string()),
        Value::Str(s) => Some(s.clone()),
        _ => None,
    }
}

/// `Hips\0\x01Model` (binary) or `Model::Hips` (ASCII) → `Hips`.
fn plain_name(tagged: &str) -> String {
    if let Some((name, _)) = tagged.split_once("\u{0}\u{1}") {
        return name.to_owned();
    }
    match tagged.split_once("::") {
        Some((_, name)) => name.to_owned(),
        None => tagged.to_owned(),
    }
}

/// An object's `Properties70` (7.x) or `Properties60` (6.x) numbers by property name:
/// `Lcl Translation → [x, y, z]`.
pub fn properties(node: &Node) -> HashMap<&str, Vec<f64>> {
    let mut out = HashMap::new();
    for list in node
        .children
        .iter()
        .filter(|c| c.name == "Properties70" || c.name == "Properties60")
    {
        for p in &list.children {
            let Some(name) = p.str(0) else { continue };
            let numbers: Vec<f64> = p
                .values
                .iter()
                .skip(1)
                .filter_map(|v| match v {
                    Value::Int(i) => Some(*i as f64),
                    Value::Float(f) => Some(*f),
                    _ => None,
                })
                .collect();
            out.insert(name, numbers);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_lose_their_class_tag_in_both_encodings() {
        assert_eq!(plain_name("Hips\u{0}\u{1}Model"), "Hips");
        assert_eq!(plain_name("Model::mixamorig:Hips"), "mixamorig:Hips");
        assert_eq!(plain_name("Cube"), "Cube");
    }
}
