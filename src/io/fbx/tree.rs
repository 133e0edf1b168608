//! The node tree both FBX encodings share, and the one rigkit writes: a node is a name, a
//! list of typed values and child nodes. The binary and ASCII readers build it, the scene
//! reader only ever sees this, and the FBX exporter builds one for [`super::encode`].

/// One value of a node, as binary FBX types it (`C`, `Y`, `I`, `L`, `F`, `D`, `S`, `R` and
/// the arrays). ASCII only tells integers from other numbers and strings, so its values come
/// as [`Value::I64`], [`Value::F64`], [`Value::Str`], [`Value::I64s`] and [`Value::F64s`];
/// readers ask for what they need ([`Value::int`], [`Value::float`], [`Node::floats`]) and
/// numbers convert.
#[derive(Debug, Clone, PartialEq)]
pub enum Value {
    Bool(bool),
    I16(i16),
    I32(i32),
    I64(i64),
    F32(f32),
    F64(f64),
    Str(String),
    Raw(Vec<u8>),
    /// A boolean or byte array (`b`, `c`).
    Bytes(Vec<u8>),
    F32s(Vec<f32>),
    F64s(Vec<f64>),
    I32s(Vec<i32>),
    I64s(Vec<i64>),
}

impl Value {
    /// A single integer (booleans as 0 and 1).
    pub fn int(&self) -> Option<i64> {
        match *self {
            Self::Bool(b) => Some(i64::from(b)),
            Self::I16(v) => Some(v.into()),
            Self::I32(v) => Some(v.into()),
            Self::I64(v) => Some(v),
            _ => None,
        }
    }

    /// A single number of any type.
    pub fn float(&self) -> Option<f64> {
        match *self {
            Self::F32(v) => Some(v.into()),
            Self::F64(v) => Some(v),
            _ => self.int().map(|i| i as f64),
        }
    }

    /// An array's numbers (`None` for a single value or a string).
    fn array(&self) -> Option<Vec<f64>> {
        Some(match self {
            Self::Bytes(v) => v.iter().map(|&x| x.into()).collect(),
            Self::F32s(v) => v.iter().map(|&x| x.into()).collect(),
            Self::F64s(v) => v.clone(),
            Self::I32s(v) => v.iter().map(|&x| x.into()).collect(),
            Self::I64s(v) => v.iter().map(|&x| x as f64).collect(),
            _ => return None,
        })
    }

    /// An array's integers, fractional numbers truncated (`None` for a single value).
    fn int_array(&self) -> Option<Vec<i64>> {
        Some(match self {
            Self::Bytes(v) => v.iter().map(|&x| x.into()).collect(),
            Self::I32s(v) => v.iter().map(|&x| x.into()).collect(),
            Self::I64s(v) => v.clone(),
            Self::F32s(v) => v.iter().map(|&x| x as i64).collect(),
            Self::F64s(v) => v.iter().map(|&x| x as i64).collect(),
            _ => return None,
        })
    }
}

#[derive(Debug, Clone, Default, PartialEq)]
pub struct Node {
    pub name: String,
    pub values: Vec<Value>,
    pub children: Vec<Node>,
}

impl Node {
    pub fn new(name: impl Into<String>) -> Self {
        Self {
            name: name.into(),
            ..Self::default()
        }
    }

    /// A node holding one value.
    pub fn of(name: impl Into<String>, value: Value) -> Self {
        Self::new(name).value(value)
    }

    pub fn value(mut self, value: Value) -> Self {
        self.values.push(value);
        self
    }

    pub fn child(mut self, child: Node) -> Self {
        self.children.push(child);
        self
    }

    pub fn children(mut self, children: impl IntoIterator<Item = Node>) -> Self {
        self.children.extend(children);
        self
    }

    /// The first child called `name`.
    pub fn find(&self, name: &str) -> Option<&Node> {
        self.children.iter().find(|c| c.name == name)
    }

    /// Every child called `name`.
    pub fn children_named<'a>(&'a self, name: &'a str) -> impl Iterator<Item = &'a Node> + 'a {
        self.children.iter().filter(move |c| c.name == name)
    }

    pub fn str(&self, i: usize) -> Option<&str> {
        match self.values.get(i)? {
            Value::Str(s) => Some(s),
            _ => None,
        }
    }

    /// The node's numbers as one list: a binary array value, an ASCII `*N { a: … }` array, or
    /// (ASCII 6.x) the plain values themselves.
    pub fn floats(&self) -> Vec<f64> {
        match self.values.as_slice() {
            [single] if let Some(v) = single.array() => v,
            values => values.iter().filter_map(Value::float).collect(),
        }
    }

    /// The node's integers as one list, as [`Node::floats`]; fractional numbers are dropped.
    pub fn ints(&self) -> Vec<i64> {
        match self.values.as_slice() {
            [single] if let Some(v) = single.int_array() => v,
            values => values
                .iter()
                .filter_map(|v| {
                    (v.int()).or_else(|| v.float().filter(|x| x.fract() == 0.0).map(|x| x as i64))
                })
                .collect(),
        }
    }

    /// A child's single string value (`MappingInformationType: "ByPolygonVertex"`).
    pub fn child_str(&self, name: &str) -> Option<&str> {
        self.find(name)?.str(0)
    }
}

/// Counts nodes while a reader builds the tree, so a hostile file cannot make millions.
pub struct Budget {
    pub nodes: usize,
    pub max_nodes: usize,
    pub max_depth: usize,
}

impl Budget {
    pub fn new(max_nodes: usize) -> Self {
        Self {
            nodes: 0,
            max_nodes,
            max_depth: 64,
        }
    }

    /// Counts one more node at `depth`.
    pub fn take(&mut self, depth: usize) -> Result<(), String> {
        self.nodes += 1;
        if self.nodes > self.max_nodes {
            return Err(format!("more than {} nodes", self.max_nodes));
        }
        if depth > self.max_depth {
            return Err(format!("nodes nested deeper than {}", self.max_depth));
        }
        Ok(())
    }
}
