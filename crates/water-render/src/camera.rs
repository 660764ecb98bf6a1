//! Where the renderers look from: a world-to-clip matrix and the eye it belongs to.

use glam::{Mat4, Vec2, Vec3};

/// A camera for the surface renderers. Clip space is wgpu's: depth from 0 (near) to 1 (far).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Camera {
    /// World to clip space.
    pub view_proj: Mat4,
    /// The eye, world metres: shading looks from here toward each point.
    pub eye: Vec3,
    /// Perspective (`true`), or orthographic looking along [`Camera::forward`].
    pub perspective: bool,
    /// Unit view direction.
    pub forward: Vec3,
}

impl Camera {
    /// A perspective camera at `eye` looking at `target`, `up` toward the top of the picture,
    /// vertical field of view `fov_y` (radians), `aspect` = width / height, depth range
    /// `near..far` (m).
    ///
    /// ```
    /// use glam::Vec3;
    /// use water_render::Camera;
    /// let camera = Camera::look_at(Vec3::new(0.0, -4.0, 3.0), Vec3::ZERO, Vec3::Z, 0.8, 1.5, 0.1, 50.0);
    /// let centre = camera.view_proj.project_point3(Vec3::ZERO);
    /// assert!(centre.x.abs() < 1e-6 && centre.y.abs() < 1e-6);
    /// ```
    #[must_use]
    #[allow(
        clippy::too_many_arguments,
        reason = "the classic look-at signature: eye, target, up and the projection's four numbers"
    )]
    pub fn look_at(
        eye: Vec3,
        target: Vec3,
        up: Vec3,
        fov_y: f32,
        aspect: f32,
        near: f32,
        far: f32,
    ) -> Self {
        let view = Mat4::look_at_rh(eye, target, up);
        let proj = Mat4::perspective_rh(fov_y, aspect, near, far);
        Self {
            view_proj: proj * view,
            eye,
            perspective: true,
            forward: (target - eye).normalize_or(Vec3::NEG_Z),
        }
    }

    /// A perspective camera circling `target`: `distance` (m) away, `yaw` (radians, around z,
    /// 0 looking along +y) and `pitch` (radians above the horizontal).
    #[must_use]
    pub fn orbit(target: Vec3, distance: f32, yaw: f32, pitch: f32, aspect: f32) -> Self {
        let direction = Vec3::new(
            -yaw.sin() * pitch.cos(),
            -yaw.cos() * pitch.cos(),
            pitch.sin(),
        );
        let eye = target + direction * distance;
        Self::look_at(
            eye,
            target,
            Vec3::Z,
            0.8,
            aspect,
            distance * 0.01,
            distance * 10.0,
        )
    }

    /// An orthographic camera looking straight down (-z) on the rectangle `min..max` of the
    /// z = 0 plane, x to the right and y up the picture, seeing heights within `depth` metres
    /// of the plane.
    #[must_use]
    pub fn top_down(min: Vec2, max: Vec2, depth: f32) -> Self {
        let centre = (min + max) * 0.5;
        let eye = centre.extend(depth);
        let view = Mat4::look_at_rh(eye, centre.extend(0.0), Vec3::Y);
        let half = (max - min) * 0.5;
        let proj = Mat4::orthographic_rh(-half.x, half.x, -half.y, half.y, 0.0, 2.0 * depth);
        Self {
            view_proj: proj * view,
            eye,
            perspective: false,
            forward: Vec3::NEG_Z,
        }
    }

    /// The `eye` of the uniform blocks that shade both kinds of camera (the bodies' and the
    /// grid surface's): xyz the eye's position, w 1 for perspective and 0 for orthographic.
    pub(crate) fn eye_uniform(&self) -> [f32; 4] {
        let perspective = if self.perspective { 1.0 } else { 0.0 };
        self.eye.extend(perspective).to_array()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn top_down_maps_the_rectangle_onto_clip_space_with_y_up() {
        let c = Camera::top_down(Vec2::new(0.0, 0.0), Vec2::new(4.0, 2.0), 1.0);
        let corner = c.view_proj.project_point3(Vec3::new(0.0, 0.0, 0.0));
        let far_corner = c.view_proj.project_point3(Vec3::new(4.0, 2.0, 0.0));
        assert!(
            (corner - Vec3::new(-1.0, -1.0, 0.5)).length() < 1e-6,
            "{corner}"
        );
        assert!(
            (far_corner - Vec3::new(1.0, 1.0, 0.5)).length() < 1e-6,
            "{far_corner}"
        );
    }

    #[test]
    fn orbit_looks_at_its_target_from_above() {
        let c = Camera::orbit(Vec3::new(1.0, 2.0, 0.0), 5.0, 0.3, 0.6, 1.0);
        assert!((c.eye.distance(Vec3::new(1.0, 2.0, 0.0)) - 5.0).abs() < 1e-5);
        assert!(c.eye.z > 0.0);
        let p = c.view_proj.project_point3(Vec3::new(1.0, 2.0, 0.0));
        assert!(p.x.abs() < 1e-5 && p.y.abs() < 1e-5);
    }
}
