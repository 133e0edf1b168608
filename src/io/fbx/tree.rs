//! The node tree both FBX encodings share: a node is a name, a list of typed values and child
//! nodes. The binary and ASCII readers build it; the scene reader only ever sees this.

/// One value of a node. Binary FBX types every value; ASCII only tells numbers from strings,
/// so readers ask for what they need and numbers convert.
#[derive(Debug, Clone, PartialEq)]
pub enum Value {
    Int(i64),
    Float(f64),
    Str(String),
    Raw(Vec<u8>),
    Ints(Vec<i64>),
    Floats(Vec<f64>),
}

#[derive(Debug, Clone, Default, PartialEq)]
pub struct Node {
    pub name: String,
    pub values: Vec<Value>,
    pub children: Vec<Node>,
}

impl Node {
    /// The first child called `name`.
    pub fn child(&self, name: &str) -> Option<&Node> {
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
            [Value::Floats(v)] => v.clone(),
            [Value::Ints(v)] => v.iter().map(|&x| x as f64).collect(),
            values => values
                .iter()
                .filter_map(|v| match v {
                    Value::Int(x) => Some(*x as f64),
                    Value::Float(x) => Some(*x),
                    _ => None,
                })
                .collect(),
        }
    }

    /// The node's integers as one list, as [`Node::floats`]; fractional numbers are dropped.
    pub fn ints(&self) -> Vec<i64> {
        match self.values.as_slice() {
            [Value::Ints(v)] => v.clone(),
            [Value::Floats(v)] => v.iter().map(|&x| x as i64).collect(),
            values => values
                .iter()
                .filter_map(|v| match v {
                    Value::Int(x) => Some(*x),
                    Value::Float(x) if x.fract() == 0.0 => Some(*x as i64),
                    _ => None,
                })
                .collect(),
        }
    }

    /// A child's single string value (`MappingInformationType: "ByPolygonVertex"`).
    pub fn child_str(&self, name: &str) -> Option<&str> {
        self.child(name)?.str(0)
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
