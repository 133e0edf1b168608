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
    /// Connections in file order, indexed by both ends below.
    links: Vec<Link>,
    /// Indices into `links` by parent and by child, each in file order.
    by_parent: HashMap<Key, Vec<usize>>,
    by_child: HashMap<Key, Vec<usize>>,
}

/// A connection of a child object to its parent, or to one of its parent's properties (a
/// curve node driving a model's `Lcl Rotation`, a texture in a material's `DiffuseColor`).
struct Link {
    child: Key,
    parent: Key,
    property: Option<String>,
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
        if let Some(list) = top.iter().find(|n| n.name == "Connections") {
            for c in &list.children {
                if !matches!(c.name.as_str(), "C" | "Connect") {
                    continue;
                }
                // Object-to-object and object-to-property links both attach a child to its
                // parent object; the second kind also names the property.
                let (Some(child), Some(parent)) =
                    (c.values.get(1).and_then(key), c.values.get(2).and_then(key))
                else {
                    continue;
                };
                links.push(Link {
                    child,
                    parent,
                    property: c.str(3).map(str::to_owned),
                });
            }
        }
        let mut by_parent: HashMap<Key, Vec<usize>> = HashMap::new();
        let mut by_child: HashMap<Key, Vec<usize>> = HashMap::new();
        for (i, link) in links.iter().enumerate() {
            by_parent.entry(link.parent.clone()).or_default().push(i);
            by_child.entry(link.child.clone()).or_default().push(i);
        }
        Self {
            objects,
            order,
            links,
            by_parent,
            by_child,
        }
    }

    fn is(&self, key: &str, class: &str) -> bool {
        self.objects.get(key).is_some_and(|o| o.class == class)
    }

    /// The links `index` (by parent or by child) holds under `key`, in file order.
    fn links<'s>(
        &'s self,
        index: &'s HashMap<Key, Vec<usize>>,
        key: &str,
    ) -> impl Iterator<Item = &'s Link> {
        index
            .get(key)
            .into_iter()
            .flatten()
            .map(|&i| &self.links[i])
    }

    /// Every object-to-property connection, in file order: `(child, parent, property)`.
    pub fn property_links(&self) -> impl Iterator<Item = (&Key, &Key, &str)> {
        self.links
            .iter()
            .filter_map(|l| Some((&l.child, &l.parent, l.property.as_deref()?)))
    }

    /// The objects of `class` connected to a property of `parent`, with the property's name.
    pub fn property_children_of(&self, parent: &str, class: &str) -> Vec<(&Key, &str)> {
        self.links(&self.by_parent, parent)
            .filter(|l| self.is(&l.child, class))
            .filter_map(|l| Some((&l.child, l.property.as_deref()?)))
            .collect()
    }

    /// The objects of `class` whose properties `child` is connected to, with the property.
    pub fn property_parents_of(&self, child: &str, class: &str) -> Vec<(&Key, &str)> {
        self.links(&self.by_child, child)
            .filter(|l| self.is(&l.parent, class))
            .filter_map(|l| Some((&l.parent, l.property.as_deref()?)))
            .collect()
    }

    /// The objects connected under `parent`, of `class`, in file order.
    pub fn children_of(&self, parent: &str, class: &str) -> Vec<&Key> {
        (self.links(&self.by_parent, parent).map(|l| &l.child))
            .filter(|k| self.is(k, class))
            .collect()
    }

    /// The parts of kind `part` (clusters, blend-shape channels) of the deformers of kind
    /// `deformer` (a skin, a blend shape) on `geometry`, in file order.
    pub fn deformer_parts(&self, geometry: &str, deformer: &str, part: &str) -> Vec<&Key> {
        let of_kind = |key: &&Key, kind: &str| self.objects[*key].kind == kind;
        (self.children_of(geometry, "Deformer").into_iter())
            .filter(|k| of_kind(k, deformer))
            .flat_map(|k| self.children_of(k, "Deformer"))
            .filter(|k| of_kind(k, part))
            .collect()
    }

    /// The objects `child` is connected under, of `class`, in file order.
    pub fn parents_of(&self, child: &str, class: &str) -> Vec<&Key> {
        (self.links(&self.by_child, child).map(|l| &l.parent))
            .filter(|k| self.is(k, class))
            .collect()
    }
}

/// An object's key as a value names it: an id (7.x) or a `Class::Name` string (6.x).
pub fn key(value: &Value) -> Option<Key> {
    match value {
        Value::Str(s) => Some(s.clone()),
        other => other.int().map(|i| i.to_string()),
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
            let numbers: Vec<f64> = p.values.iter().skip(1).filter_map(Value::float).collect();
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
