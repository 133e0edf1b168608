use glam::Vec3;

/// An axis-aligned bounding box.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Aabb {
    pub min: Vec3,
    pub max: Vec3,
}

impl Aabb {
    /// The box around `points`; an empty input gives a box at the origin with zero size.
    pub fn from_points(points: &[Vec3]) -> Self {
        let Some(first) = points.first() else {
            return Self {
                min: Vec3::ZERO,
                max: Vec3::ZERO,
            };
        };
        points.iter().fold(
            Self {
                min: *first,
                max: *first,
            },
            |b, p| Self {
                min: b.min.min(*p),
                max: b.max.max(*p),
            },
        )
    }

    pub fn center(&self) -> Vec3 {
        (self.min + self.max) * 0.5
    }

    pub fn size(&self) -> Vec3 {
        self.max - self.min
    }

    /// Length of the longest side.
    pub fn longest_side(&self) -> f32 {
        self.size().max_element()
    }

    pub fn diagonal(&self) -> f32 {
        self.size().length()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn box_encloses_every_point() {
        let pts = [
            Vec3::new(1.0, -2.0, 0.5),
            Vec3::new(-3.0, 4.0, 0.0),
            Vec3::new(0.0, 0.0, 9.0),
        ];
        let b = Aabb::from_points(&pts);
        assert_eq!(b.min, Vec3::new(-3.0, -2.0, 0.0));
        assert_eq!(b.max, Vec3::new(1.0, 4.0, 9.0));
        assert_eq!(b.longest_side(), 9.0);
    }
}
