//! The `<visual_scene>` hierarchy: each node's transform elements composed in order, its
//! world matrix, and what it instances (geometries, skinned controllers).

use std::collections::HashMap;

use glam::{DMat4, DVec3};
use roxmltree::Node;

use super::document::{child, children, floats, matrix};

/// One transform element of a node, kept so that animation channels can replace its values.
#[derive(Debug, Clone)]
pub struct TransformElement<'a> {
    pub sid: Option<&'a str>,
    pub kind: &'a str,
    pub values: Vec<f64>,
}

pub struct SceneNode<'a> {
    pub id: Option<&'a str>,
    pub sid: Option<&'a str>,
    pub name: String,
    pub is_joint: bool,
    pub parent: Option<usize>,
    /// The node's transform elements, in order.
    pub transforms: Vec<TransformElement<'a>>,
    pub world: DMat4,
    /// `(url, material symbol → material id)` of each `<instance_geometry>`.
    pub geometries: Vec<(&'a str, HashMap<&'a str, &'a str>)>,
    /// The same for each `<instance_controller>`.
    pub controllers: Vec<(&'a str, HashMap<&'a str, &'a str>)>,
}

/// Every node under `scene`, parents first.
pub fn read<'a>(scene: Node<'a, '_>, max_nodes: usize) -> Result<Vec<SceneNode<'a>>, String> {
    let mut out = Vec::new();
    for node in children(scene, "node") {
        walk(node, None, DMat4::IDENTITY, 0, max_nodes, &mut out)?;
    }
    Ok(out)
}

fn walk<'a>(
    node: Node<'a, '_>,
    parent: Option<usize>,
    parent_world: DMat4,
    depth: usize,
    max_nodes: usize,
    out: &mut Vec<SceneNode<'a>>,
) -> Result<(), String> {
    if out.len() >= max_nodes {
        return Err(format!("more than {max_nodes} scene nodes"));
    }
    if depth > 256 {
        return Err("scene nodes nested deeper than 256".into());
    }
    let transforms = transform_elements(node)?;
    let world = parent_world * compose(&transforms);
    let instances = |kind: &'static str| {
        children(node, kind)
            .filter_map(|i| Some((i.attribute("url")?, bound_materials(i))))
            .collect::<Vec<_>>()
    };
    let index = out.len();
    out.push(SceneNode {
        id: node.attribute("id"),
        sid: node.attribute("sid"),
        name: node
            .attribute("name")
            .or(node.attribute("id"))
            .unwrap_or("node")
            .to_owned(),
        is_joint: node.attribute("type") == Some("JOINT"),
        parent,
        transforms,
        world,
        geometries: instances("instance_geometry"),
        controllers: instances("instance_controller"),
    });
    for c in children(node, "node") {
        walk(c, Some(index), world, depth + 1, max_nodes, out)?;
    }
    Ok(())
}

/// A node's transform elements, checked: each has the numbers its kind needs, all finite.
fn transform_elements<'a>(node: Node<'a, '_>) -> Result<Vec<TransformElement<'a>>, String> {
    let mut out = Vec::new();
    for t in node.children().filter(|c| c.is_element()) {
        let kind = t.tag_name().name();
        let needed = match kind {
            "matrix" => 16,
            "translate" | "scale" => 3,
            "rotate" => 4,
            _ => continue,
        };
        let values = floats(t)?;
        if values.len() < needed || values.iter().any(|v| !v.is_finite()) {
            return Err(format!("a <{kind}> without {needed} finite numbers"));
        }
        out.push(TransformElement {
            sid: t.attribute("sid"),
            kind,
            values,
        });
    }
    Ok(out)
}

/// Transform elements multiplied in the order written.
pub fn compose(elements: &[TransformElement<'_>]) -> DMat4 {
    let mut m = DMat4::IDENTITY;
    for t in elements {
        let v = &t.values;
        m *= match t.kind {
            "matrix" => matrix(v).unwrap_or(DMat4::IDENTITY),
            "translate" => DMat4::from_translation(DVec3::new(v[0], v[1], v[2])),
            "scale" => DMat4::from_scale(DVec3::new(v[0], v[1], v[2])),
            "rotate" => {
                let axis = DVec3::new(v[0], v[1], v[2]);
                if axis.length_squared() > 0.0 {
                    DMat4::from_axis_angle(axis.normalize(), v[3].to_radians())
                } else {
                    DMat4::IDENTITY
                }
            }
            _ => DMat4::IDENTITY,
        };
    }
    m
}

/// `<bind_material>`'s `symbol → target` pairs.
fn bound_materials<'a>(instance: Node<'a, '_>) -> HashMap<&'a str, &'a str> {
    child(instance, "bind_material")
        .and_then(|b| child(b, "technique_common"))
        .map(|t| {
            children(t, "instance_material")
                .filter_map(|m| Some((m.attribute("symbol")?, m.attribute("target")?)))
                .collect()
        })
        .unwrap_or_default()
}
