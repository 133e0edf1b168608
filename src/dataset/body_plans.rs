//! The body plan of each real character the classifier learns from or is scored on, by pack
//! and file name, and of each generated creature by its morphology. Written once by looking at
//! the files; a file no rule covers, or one whose plan is ambiguous (a tank, a fruit with
//! legs, a hovering drone), is left out rather than guessed.

use crate::dataset::creature::Morphology;
use crate::recognise::BodyClass;

use BodyClass::{
    Bird, Fish, Humanoid, Other, Quadruped, Snake, Spider, TailedBiped, WingedQuadruped,
};

/// A labelling rule: files under `folder` whose lowercased name contains `name` have `class`
/// (`None`: left out). The first rule that matches decides.
struct Rule {
    folder: &'static str,
    name: &'static str,
    class: Option<BodyClass>,
}

const fn rule(folder: &'static str, name: &'static str, class: Option<BodyClass>) -> Rule {
    Rule {
        folder,
        name,
        class,
    }
}

/// Paths are relative to the data root (`/`-separated), 0 A.D.'s as `0ad/<path>`.
const RULES: &[Rule] = &[
    // 0 A.D.: its people share one biped rig; the rest are animals.
    rule("0ad/new/", "", Some(Humanoid)),
    rule("0ad/campaigns/", "", Some(Humanoid)),
    rule("0ad/", "whale_fin", None),
    rule("0ad/", "marker", None),
    rule("0ad/", "seagull", Some(Bird)),
    rule("0ad/", "crow", Some(Bird)),
    rule("0ad/", "hawk", Some(Bird)),
    rule("0ad/", "chicken", Some(Bird)),
    rule("0ad/", "peacock", Some(Bird)),
    rule("0ad/", "shark", Some(Fish)),
    rule("0ad/", "tuna", Some(Fish)),
    rule("0ad/", "fish", Some(Fish)),
    rule("0ad/", "whale", Some(Fish)),
    rule("0ad/", "dolphin", Some(Fish)),
    rule("0ad/", "", Some(Quadruped)),
    // Mesh2Motion: each file is named after the template it was rigged with.
    rule("train/mesh2motion-variations/", "human", Some(Humanoid)),
    rule("train/mesh2motion-variations/", "fox", Some(Quadruped)),
    rule("train/mesh2motion-variations/", "bird", Some(Bird)),
    rule("train/mesh2motion-variations/", "fish", Some(Fish)),
    rule("train/mesh2motion-variations/", "kaiju", Some(TailedBiped)),
    rule("motion/mesh2motion/", "bird", Some(Bird)),
    rule("motion/mesh2motion/", "dragon", Some(WingedQuadruped)),
    rule("motion/mesh2motion/", "fox", Some(Quadruped)),
    rule("motion/mesh2motion/", "horse", Some(Quadruped)),
    rule("motion/mesh2motion/", "kaiju", Some(TailedBiped)),
    rule("motion/mesh2motion/", "shark", Some(Fish)),
    rule("motion/mesh2motion/", "snake", Some(Snake)),
    rule("motion/mesh2motion/", "spider", Some(Spider)),
    rule("samples/", "bird", Some(Bird)),
    rule("samples/", "dragon", Some(WingedQuadruped)),
    rule("samples/", "fox", Some(Quadruped)),
    rule("samples/", "horse", Some(Quadruped)),
    rule("samples/", "human", Some(Humanoid)),
    rule("samples/", "kaiju", Some(TailedBiped)),
    rule("samples/", "shark", Some(Fish)),
    rule("samples/", "snake", Some(Snake)),
    rule("samples/", "spider", Some(Spider)),
    rule("train/kaykit-glb/", "", Some(Humanoid)),
    rule("train/luanti-devtest/", "spider", Some(Spider)),
    // Quaternius, pack by pack.
    rule("train/quaternius-fbx/Fruit_", "", None),
    rule("train/quaternius-fbx/Animated_Robot", "", Some(Humanoid)),
    rule("train/quaternius-fbx/Alien", "", Some(Humanoid)),
    rule("train/quaternius-fbx/Animated_Men", "", Some(Humanoid)),
    rule("train/quaternius-fbx/Animated_Women", "", Some(Humanoid)),
    rule("train/quaternius-fbx/Cowboy", "", Some(Humanoid)),
    rule("train/quaternius-fbx/Goblin", "", Some(Humanoid)),
    rule("train/quaternius-fbx/Knight", "", Some(Humanoid)),
    rule("train/quaternius-fbx/Man_", "", Some(Humanoid)),
    rule("train/quaternius-fbx/Farm_Animals", "", Some(Quadruped)),
    rule("train/quaternius-fbx/Fish_Pack", "", Some(Fish)),
    rule("train/quaternius-fbx/", "eagle", Some(Bird)),
    rule("train/quaternius-fbx/", "chick", Some(Bird)),
    rule("train/quaternius-fbx/", "bird", Some(Bird)),
    rule("train/quaternius-fbx/", "bat", Some(Bird)),
    rule("train/quaternius-fbx/", "piranha", Some(Fish)),
    rule("train/quaternius-fbx/", "fish", Some(Fish)),
    rule("train/quaternius-fbx/", "whale", Some(Fish)),
    rule("train/quaternius-fbx/", "fox", Some(Quadruped)),
    rule("train/quaternius-fbx/", "cat", Some(Quadruped)),
    rule("train/quaternius-fbx/", "dog", Some(Quadruped)),
    rule("train/quaternius-fbx/", "wolf", Some(Quadruped)),
    rule("train/quaternius-fbx/Monster_", "skeleton", Some(Humanoid)),
    rule("train/quaternius-fbx/Monster_", "slime", Some(Other)),
    rule(
        "train/quaternius-fbx/Monster_",
        "dragon",
        Some(WingedQuadruped),
    ),
    rule("train/quaternius-glb/modular_", "", Some(Humanoid)),
    rule("train/quaternius-glb/single_knight", "", Some(Humanoid)),
    rule("train/quaternius-glb/toon", "", Some(Humanoid)),
    rule("train/quaternius-glb/cute_fish", "", Some(Fish)),
    rule("train/quaternius-glb/fish_pack", "", Some(Fish)),
    rule(
        "train/quaternius-glb/cyberpunk_pack/",
        "character",
        Some(Humanoid),
    ),
    rule(
        "train/quaternius-glb/cyberpunk_pack/",
        "enemy_flying",
        Some(Other),
    ),
    rule("train/quaternius-glb/cyberpunk_pack/", "", None),
    rule(
        "train/quaternius-glb/platformer_game_pack/",
        "character",
        Some(Humanoid),
    ),
    rule(
        "train/quaternius-glb/platformer_game_pack/",
        "crab",
        Some(Spider),
    ),
    rule(
        "train/quaternius-glb/platformer_game_pack/",
        "bee",
        Some(Spider),
    ),
    rule("train/quaternius-glb/platformer_game_pack/", "enemy", None),
    rule(
        "train/quaternius-glb/platformer_game_pack/",
        "",
        Some(Other),
    ),
    rule("train/quaternius-glb/tank_pack/", "", Some(Other)),
    rule(
        "train/quaternius-glb/ultimate-monsters",
        "dragon",
        Some(WingedQuadruped),
    ),
    rule("train/quaternius-glb/ultimate-monsters", "", None),
    rule(
        "train/quaternius-glb/ultimate-space-kit/",
        "astronaut",
        Some(Humanoid),
    ),
    rule(
        "train/quaternius-glb/ultimate-space-kit/",
        "enemy",
        Some(Other),
    ),
    rule("train/quaternius-glb/ultimate-space-kit/", "", None),
    // The public eval set: scored, never trained on.
    rule("eval/", "fox", Some(Quadruped)),
    rule("eval/", "frog", Some(Quadruped)),
    rule("eval/", "rat", Some(Quadruped)),
    rule("eval/", "cesiumman", Some(Humanoid)),
    rule("eval/", "robotexpressive", Some(Humanoid)),
    rule("eval/", "mannequiny", Some(Humanoid)),
    rule("eval/quaternius-mech_pack/", "", Some(Humanoid)),
    rule("eval/", "snake", Some(Snake)),
    rule("eval/", "spider", Some(Spider)),
    rule("eval/", "wasp", Some(Spider)),
];

/// The body plan of the real file at `relative` (from the data root, `/`-separated); `None`
/// when it is left out.
pub fn class_of_path(relative: &str) -> Option<BodyClass> {
    let name = relative
        .rsplit('/')
        .next()
        .unwrap_or(relative)
        .to_ascii_lowercase();
    RULES
        .iter()
        .find(|r| relative.starts_with(r.folder) && name.contains(r.name))
        .and_then(|r| r.class)
}

/// The body plan of a generated creature; `None` for the robot, whose boxy parts come in any
/// arrangement.
pub fn class_of_morphology(morphology: Morphology) -> Option<BodyClass> {
    match morphology {
        Morphology::Biped => Some(Humanoid),
        Morphology::Quadruped => Some(Quadruped),
        Morphology::Hexapod | Morphology::Octopod => Some(Spider),
        Morphology::Bird => Some(Bird),
        Morphology::Fish => Some(Fish),
        Morphology::Snake => Some(Snake),
        Morphology::Tentacled | Morphology::MultiHeaded => Some(Other),
        Morphology::TailedBiped => Some(TailedBiped),
        Morphology::Dragon => Some(WingedQuadruped),
        Morphology::Robot => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn packs_get_their_plans_and_unclear_files_none() {
        let cases = [
            ("0ad/new/m_naked.glb", Some(Humanoid)),
            ("0ad/crow.glb", Some(Bird)),
            ("0ad/horse.glb", Some(Quadruped)),
            ("0ad/shark.glb", Some(Fish)),
            ("0ad/whale_fin.glb", None),
            (
                "train/mesh2motion-variations/kaiju-base.glb",
                Some(TailedBiped),
            ),
            (
                "train/quaternius-fbx/Monster_Pack_Animated_-_Aug_2018/Dragon.glb",
                Some(WingedQuadruped),
            ),
            (
                "train/quaternius-fbx/Animals_Pack_-_Oct_2016/Red_Fox.glb",
                Some(Quadruped),
            ),
            (
                "train/quaternius-fbx/Fruit_Characters_Animated_-_Mar_2017/Banana.glb",
                None,
            ),
            (
                "train/quaternius-glb/platformer_game_pack/Crab.glb",
                Some(Spider),
            ),
            ("eval/quaternius-easy_enemies_pack/Wasp.glb", Some(Spider)),
            ("samples/model-dragon.glb", Some(WingedQuadruped)),
            ("elsewhere/thing.glb", None),
        ];
        for (path, class) in cases {
            assert_eq!(class_of_path(path), class, "{path}");
        }
        assert_eq!(class_of_morphology(Morphology::Octopod), Some(Spider));
        assert_eq!(class_of_morphology(Morphology::Robot), None);
    }
}
