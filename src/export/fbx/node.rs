//! What the FBX exporter writes besides the node tree itself (`crate::io::fbx::Node`):
//! object names, `Properties70` entries, and the header's file id.

use crate::io::fbx::Value;

/// FBX readers check the file id and creation time against the footer's id; this triple is
/// one that readers accept (the FBX SDK writes a matching set for each time stamp).
pub const FILE_ID: [u8; 16] = [
    0x28, 0xb3, 0x2a, 0xeb, 0xb6, 0x24, 0xcc, 0xc2, 0xbf, 0xc8, 0xb0, 0x2a, 0xa9, 0x2b, 0xfc, 0xf1,
];
pub const CREATION_TIME: &str = "1970-01-01 10:00:00:000";
/// An object's name as FBX stores it: the name, then its class after `\0\x01`.
pub fn object_name(name: &str, class: &str) -> Value {
    Value::Str(format!("{name}\u{0}\u{1}{class}"))
}

/// `Properties70`'s entries, `P: name, type, label, flags, values…`.
pub mod property {
    use crate::io::fbx::{Node, Value};

    fn p(name: &str, kind: &str, label: &str, flags: &str) -> Node {
        Node::new("P")
            .value(Value::Str(name.into()))
            .value(Value::Str(kind.into()))
            .value(Value::Str(label.into()))
            .value(Value::Str(flags.into()))
    }

    pub fn int(name: &str, v: i32) -> Node {
        p(name, "int", "Integer", "").value(Value::I32(v))
    }

    pub fn enumeration(name: &str, v: i32) -> Node {
        p(name, "enum", "", "").value(Value::I32(v))
    }

    pub fn boolean(name: &str, v: bool) -> Node {
        p(name, "bool", "", "").value(Value::I32(i32::from(v)))
    }

    pub fn double(name: &str, v: f64) -> Node {
        p(name, "double", "Number", "").value(Value::F64(v))
    }

    /// An animatable number, as curve nodes' channels and material factors are.
    pub fn number(name: &str, v: f64) -> Node {
        p(name, "Number", "", "A").value(Value::F64(v))
    }

    pub fn string(name: &str, v: &str) -> Node {
        p(name, "KString", "", "").value(Value::Str(v.into()))
    }

    pub fn time(name: &str, ticks: i64) -> Node {
        p(name, "KTime", "Time", "").value(Value::I64(ticks))
    }

    /// An animatable colour (`Color`, as materials use).
    pub fn colour(name: &str, rgb: [f64; 3]) -> Node {
        rgb.iter()
            .fold(p(name, "Color", "", "A"), |n, &c| n.value(Value::F64(c)))
    }

    /// A model's `Lcl Translation`, `Lcl Rotation` or `Lcl Scaling`.
    pub fn local(name: &str, v: [f64; 3]) -> Node {
        v.iter()
            .fold(p(name, name, "", "A"), |n, &c| n.value(Value::F64(c)))
    }

    pub fn object(name: &str) -> Node {
        p(name, "object", "", "")
    }
}
