//! From a pixel under the mouse to a point on the water: the ray through the pixel, met with
//! the still-water plane (grid) or the sphere.

use glam::{Mat4, Vec2, Vec3};

/// A ray in world space.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Ray {
    /// Where it starts (on the near plane), metres.
    pub origin: Vec3,
    /// Unit direction.
    pub direction: Vec3,
}

impl Ray {
    /// The point `t` metres along the ray.
    #[must_use]
    pub fn at(&self, t: f32) -> Vec3 {
        self.origin + self.direction * t
    }
}

/// The ray through `pixel` (window pixels from the top-left corner, as the cursor reports
/// them) of a `viewport`-sized picture drawn with `view_proj` (wgpu clip space: depth 0 near,
/// 1 far). `None` when the matrix cannot be inverted or the viewport is empty.
#[must_use]
pub fn ray_through_pixel(view_proj: Mat4, pixel: Vec2, viewport: Vec2) -> Option<Ray> {
    if viewport.min_element() <= 0.0 || !pixel.is_finite() {
        return None;
    }
    // Pixel rows grow downward, clip-space y upward.
    let ndc = Vec2::new(
        2.0 * pixel.x / viewport.x - 1.0,
        1.0 - 2.0 * pixel.y / viewport.y,
    );
    let inverse = view_proj.inverse();
    if !inverse.is_finite() {
        return None;
    }
    let near = inverse.project_point3(ndc.extend(0.0));
    let far = inverse.project_point3(ndc.extend(1.0));
    let direction = (far - near).try_normalize()?;
    near.is_finite().then_some(Ray {
        origin: near,
        direction,
    })
}

/// Where `ray` meets the still water `z = 0` in front of it.
#[must_use]
pub fn hit_still_water(ray: &Ray) -> Option<Vec3> {
    // A ray (nearly) parallel to the water meets it beyond anything drawn, if at all.
    if ray.direction.z.abs() < 1e-6 {
        return None;
    }
    let t = -ray.origin.z / ray.direction.z;
    (t >= 0.0).then(|| {
        let mut p = ray.at(t);
        p.z = 0.0;
        p
    })
}

/// The first point where `ray` meets the sphere of `radius` about the origin.
#[must_use]
pub fn hit_sphere(ray: &Ray, radius: f32) -> Option<Vec3> {
    // |o + t d|^2 = r^2 with |d| = 1: t^2 + 2 (o.d) t + |o|^2 - r^2 = 0.
    let b = ray.origin.dot(ray.direction);
    let c = ray.origin.length_squared() - radius * radius;
    let discriminant = b * b - c;
    if discriminant < 0.0 {
        return None;
    }
    let root = discriminant.sqrt();
    let t = if -b - root >= 0.0 {
        -b - root
    } else {
        -b + root
    };
    (t >= 0.0).then(|| ray.at(t))
}

#[cfg(test)]
mod tests {
    use water_render::Camera;

    use super::*;

    const VIEWPORT: Vec2 = Vec2::new(1280.0, 720.0);

    #[test]
    fn the_centre_pixel_of_an_orbit_camera_hits_its_target_on_the_water() {
        let target = Vec3::new(5.0, 5.0, 0.0);
        let camera = Camera::orbit(target, 12.0, 0.35, 0.75, VIEWPORT.x / VIEWPORT.y);
        let ray = ray_through_pixel(camera.view_proj, VIEWPORT * 0.5, VIEWPORT).expect("ray");
        let hit = hit_still_water(&ray).expect("hit");
        assert!(hit.distance(target) < 1e-3, "{hit}");
        // And the hit projects back onto the pixel.
        let back = camera.view_proj.project_point3(hit);
        assert!(back.x.abs() < 1e-4 && back.y.abs() < 1e-4, "{back}");
    }

    #[test]
    fn a_pixel_off_centre_projects_back_onto_itself() {
        let camera = Camera::orbit(Vec3::new(5.0, 5.0, 0.0), 12.0, 0.35, 0.75, 16.0 / 9.0);
        let pixel = Vec2::new(300.0, 500.0);
        let ray = ray_through_pixel(camera.view_proj, pixel, VIEWPORT).expect("ray");
        let hit = hit_still_water(&ray).expect("below the horizon");
        let ndc = camera.view_proj.project_point3(hit);
        let back = Vec2::new(
            (ndc.x + 1.0) * 0.5 * VIEWPORT.x,
            (1.0 - ndc.y) * 0.5 * VIEWPORT.y,
        );
        assert!(back.distance(pixel) < 0.05, "{back} vs {pixel}");
    }

    #[test]
    fn the_sky_misses_the_water() {
        // Looking down at 0.2 rad with a 0.8 rad field of view: the top row is above the horizon.
        let camera = Camera::orbit(Vec3::ZERO, 10.0, 0.0, 0.2, 16.0 / 9.0);
        let ray =
            ray_through_pixel(camera.view_proj, Vec2::new(640.0, 0.0), VIEWPORT).expect("ray");
        assert_eq!(hit_still_water(&ray), None);
        assert_eq!(
            ray_through_pixel(camera.view_proj, Vec2::ZERO, Vec2::ZERO),
            None
        );
    }

    #[test]
    fn a_ray_meets_the_near_side_of_the_sphere_and_can_miss_it() {
        let ray = Ray {
            origin: Vec3::new(0.0, -5.0, 0.0),
            direction: Vec3::Y,
        };
        let hit = hit_sphere(&ray, 2.0).expect("hit");
        assert!(hit.distance(Vec3::new(0.0, -2.0, 0.0)) < 1e-5, "{hit}");
        let beside = Ray {
            origin: Vec3::new(2.5, -5.0, 0.0),
            direction: Vec3::Y,
        };
        assert_eq!(hit_sphere(&beside, 2.0), None);
        let away = Ray {
            origin: Vec3::new(0.0, -5.0, 0.0),
            direction: Vec3::NEG_Y,
        };
        assert_eq!(hit_sphere(&away, 2.0), None);
    }
}
