//! A rigged template carried onto another mesh on its own bodies: each body overlaid on the
//! mesh ([`register`], nearest points from [`closest`]), bent onto its surface ([`warp`]), and
//! the joints moved with it and blended over the bodies that fit ([`carrying`]); the steps
//! that need only numbers ([`steps`]) run anywhere ([`jobs`]). [`library`] holds the templates
//! compiled in; what a template's bodies give every carry alike is worked out once ([`prepared`]).

pub(super) mod carrying;
pub(super) mod closest;
pub(super) mod jobs;
pub(super) mod library;
pub(super) mod prepared;
pub(super) mod register;
pub(super) mod steps;
pub(super) mod warp;
