use std::f32::consts::FRAC_PI_2;

use glam::Vec3;
use three_d::{Camera, Viewport, degrees, vec3};

use crate::mesh::Aabb;

const FIELD_OF_VIEW_DEGREES: f32 = 40.0;

/// A turntable camera around a target point: yaw about +Y (glTF's up), pitch, distance.
///
/// Kept as plain angles rather than three-d's camera so that input handling is testable
/// without a GL context.
#[derive(Debug, Clone, PartialEq)]
pub struct OrbitCamera {
    pub target: Vec3,
    pub yaw: f32,
    pub pitch: f32,
    pub distance: f32,
    /// The framed model's radius, which bounds zoom and sets the clip planes.
    radius: f32,
}

impl Default for OrbitCamera {
    fn default() -> Self {
        Self {
            target: Vec3::ZERO,
            yaw: 0.5,
            pitch: 0.25,
            distance: 3.0,
            radius: 1.0,
        }
    }
}

impl OrbitCamera {
    /// Looks at `bounds` from the front-right, close enough that it fills the view.
    pub fn frame(&mut self, bounds: &Aabb) {
        self.radius = (bounds.diagonal() * 0.5).max(1e-6);
        self.target = bounds.center();
        let half_fov = (FIELD_OF_VIEW_DEGREES * 0.5).to_radians();
        // The bounding sphere is loose for most characters: a little inside it frames them well.
        self.distance = self.radius / half_fov.sin() * 0.9;
        self.yaw = 0.5;
        self.pitch = 0.25;
    }

    /// Turns by a drag of `dx`, `dy` pixels.
    pub fn orbit(&mut self, dx: f32, dy: f32) {
        self.yaw -= dx * 0.008;
        self.pitch = (self.pitch + dy * 0.008).clamp(-FRAC_PI_2 + 0.01, FRAC_PI_2 - 0.01);
    }

    /// Moves closer (`steps` > 0) or further; each step is 10 %.
    pub fn zoom(&mut self, steps: f32) {
        self.distance =
            (self.distance * 0.9f32.powf(steps)).clamp(self.radius * 0.05, self.radius * 50.0);
    }

    /// Slides the target in the view plane by a drag of `dx`, `dy` pixels.
    pub fn pan(&mut self, dx: f32, dy: f32) {
        let (_, right, up) = self.view_axes();
        let scale = self.distance * 0.0015;
        self.target += (-right * dx + up * dy) * scale;
    }

    pub fn eye(&self) -> Vec3 {
        let (sy, cy) = self.yaw.sin_cos();
        let (sp, cp) = self.pitch.sin_cos();
        self.target + Vec3::new(sy * cp, sp, cy * cp) * self.distance
    }

    /// The near and far clip distances: the framed model and room around it.
    fn clip_planes(&self) -> (f32, f32) {
        (
            (self.distance - self.radius * 2.0).max(self.distance * 0.01),
            self.distance + self.radius * 4.0,
        )
    }

    /// The three-d camera for a viewport of `width` × `height` pixels.
    pub fn camera(&self, width: u32, height: u32) -> Camera {
        let eye = self.eye();
        let t = self.target;
        let (near, far) = self.clip_planes();
        Camera::new_perspective(
            Viewport::new_at_origo(width, height),
            vec3(eye.x, eye.y, eye.z),
            vec3(t.x, t.y, t.z),
            vec3(0.0, 1.0, 0.0),
            degrees(FIELD_OF_VIEW_DEGREES),
            near,
            far,
        )
    }

    /// Where `point` appears in a `width` × `height` viewport, in pixels from its top-left
    /// corner (the same projection as [`Self::camera`]); `None` behind the camera.
    pub fn screen_position(&self, point: Vec3, width: f32, height: f32) -> Option<glam::Vec2> {
        let (near, far) = self.clip_planes();
        let view = glam::Mat4::look_at_rh(self.eye(), self.target, Vec3::Y);
        let projection = glam::Mat4::perspective_rh_gl(
            FIELD_OF_VIEW_DEGREES.to_radians(),
            width / height.max(1.0),
            near,
            far,
        );
        let clip = projection * view * point.extend(1.0);
        if clip.w <= 1e-6 {
            return None;
        }
        let ndc = clip.truncate() / clip.w;
        Some(glam::Vec2::new(
            (ndc.x + 1.0) * 0.5 * width,
            (1.0 - ndc.y) * 0.5 * height,
        ))
    }

    /// How far in the world a point at `point` moves when dragged `dx`, `dy` pixels in the
    /// plane facing the camera (viewport `height` pixels tall).
    pub fn drag_in_view_plane(&self, point: Vec3, dx: f32, dy: f32, height: f32) -> Vec3 {
        let (forward, right, up) = self.view_axes();
        let depth = (point - self.eye()).dot(forward).max(1e-6);
        let per_pixel =
            2.0 * depth * (FIELD_OF_VIEW_DEGREES.to_radians() * 0.5).tan() / height.max(1.0);
        (right * dx - up * dy) * per_pixel
    }

    /// The world-space turn a drag of `dx`, `dy` pixels draws in pose mode: about the view
    /// axis and the camera's horizontal axis.
    pub fn drag_turn(&self, dx: f32, dy: f32) -> glam::Quat {
        let (view, right, _) = self.view_axes();
        glam::Quat::from_axis_angle(view, -dx * TURN_PER_PIXEL)
            * glam::Quat::from_axis_angle(right, dy * TURN_PER_PIXEL)
    }

    /// Where each of `points` appears on a `width` × `height` viewport, flat `x, y, …` in
    /// pixels from the top-left; NaN for a point behind the camera.
    pub fn flat_screen_positions(&self, points: &[Vec3], width: f32, height: f32) -> Vec<f32> {
        points
            .iter()
            .flat_map(|p| {
                self.screen_position(*p, width, height)
                    .map_or([f32::NAN; 2], |s| s.to_array())
            })
            .collect()
    }

    /// The point of `points` (world space) nearest the pointer at `x`, `y` on a `width` ×
    /// `height` viewport, if one is within a few pixels of it.
    pub fn pick(&self, points: &[Vec3], x: f32, y: f32, width: f32, height: f32) -> Option<usize> {
        let mut best = (None, PICK_RADIUS);
        for (i, p) in points.iter().enumerate() {
            if let Some(s) = self.screen_position(*p, width, height) {
                let d = (s.x - x).hypot(s.y - y);
                if d < best.1 {
                    best = (Some(i), d);
                }
            }
        }
        best.0
    }

    /// The ray from the eye through the pixel at `x`, `y` of a `width` × `height` viewport:
    /// its origin and unit direction (the same projection as [`Self::camera`]).
    pub fn ray(&self, x: f32, y: f32, width: f32, height: f32) -> (Vec3, Vec3) {
        let (forward, right, up) = self.view_axes();
        let half = (FIELD_OF_VIEW_DEGREES.to_radians() * 0.5).tan();
        let aspect = width / height.max(1.0);
        let (sx, sy) = (
            2.0 * x / width.max(1.0) - 1.0,
            1.0 - 2.0 * y / height.max(1.0),
        );
        let direction = forward + right * (sx * half * aspect) + up * (sy * half);
        (self.eye(), direction.normalize_or(forward))
    }

    /// The direction the camera looks along.
    pub fn view_direction(&self) -> Vec3 {
        (self.target - self.eye()).normalize_or(Vec3::NEG_Z)
    }

    /// The camera's frame: where it looks, and the screen's right and up in the world.
    pub fn view_axes(&self) -> (Vec3, Vec3, Vec3) {
        let forward = self.view_direction();
        let right = forward.cross(Vec3::Y).normalize_or(Vec3::X);
        (forward, right, right.cross(forward))
    }
}

/// How close (pixels) a pointer must be to a point to pick it.
const PICK_RADIUS: f32 = 14.0;
/// Radians a joint turns per pixel dragged in pose mode.
const TURN_PER_PIXEL: f32 = 0.01;

#[cfg(test)]
mod tests {
    use super::*;

    /// A camera framing the cube from −1 to 1, orbited by `yaw` and `pitch` degrees.
    fn framed(yaw: f32, pitch: f32) -> OrbitCamera {
        let mut camera = OrbitCamera::default();
        camera.frame(&Aabb {
            min: Vec3::splat(-1.0),
            max: Vec3::splat(1.0),
        });
        camera.orbit(yaw, pitch);
        camera
    }

    #[test]
    fn a_dragged_point_follows_the_pointer_on_screen() {
        let camera = framed(40.0, 25.0);
        let (w, h) = (800.0, 600.0);
        let centre = camera.screen_position(Vec3::ZERO, w, h).unwrap();
        assert!((centre - glam::Vec2::new(400.0, 300.0)).length() < 1e-2);
        let p = Vec3::new(0.3, 0.2, -0.1);
        let at = camera.screen_position(p, w, h).unwrap();
        let moved = p + camera.drag_in_view_plane(p, 25.0, -10.0, h);
        let now = camera.screen_position(moved, w, h).unwrap();
        assert!(
            (now - at - glam::Vec2::new(25.0, -10.0)).length() < 0.5,
            "{at} → {now}"
        );
        let behind = camera.eye() - camera.view_direction();
        assert!(camera.screen_position(behind, w, h).is_none());
    }

    #[test]
    fn the_ray_through_a_point_on_screen_passes_through_the_point() {
        let camera = framed(-70.0, 40.0);
        let (w, h) = (640.0, 360.0);
        for p in [
            Vec3::ZERO,
            Vec3::new(0.4, -0.7, 0.2),
            Vec3::new(-0.9, 0.5, 0.8),
        ] {
            let s = camera.screen_position(p, w, h).unwrap();
            let (origin, direction) = camera.ray(s.x, s.y, w, h);
            let off_ray = (p - origin).cross(direction).length();
            assert!(off_ray < 1e-3, "{p}: {off_ray} from the ray");
            assert!((direction.length() - 1.0).abs() < 1e-5);
        }
    }

    #[test]
    fn framing_puts_the_whole_box_in_front_of_the_camera() {
        let bounds = Aabb {
            min: Vec3::new(-1.0, 0.0, -0.5),
            max: Vec3::new(1.0, 4.0, 0.5),
        };
        let mut cam = OrbitCamera::default();
        cam.frame(&bounds);
        assert_eq!(cam.target, bounds.center());
        assert!((cam.eye() - cam.target).length() > bounds.diagonal() * 0.5);
    }

    #[test]
    fn orbit_keeps_distance_and_never_flips_over_the_pole() {
        let mut cam = OrbitCamera::default();
        let d = cam.distance;
        cam.orbit(120.0, 10_000.0);
        assert!((cam.eye() - cam.target).length() - d < 1e-4);
        assert!(cam.pitch < FRAC_PI_2);
        cam.zoom(1000.0);
        assert!(cam.distance > 0.0);
    }
}
