// Package ragdoll builds the geometry of a ragdoll from a skinned mesh at
// rest: which bones get a rigid body, the vertices and a conservative
// collider per body, and a joint with limits between each body and its
// parent. Pure geometry: bones and skinned vertices in, bodies and joints
// out; no glTF, no profiles. Build is deterministic, never modifies its
// inputs, and names the bone or vertex of bad input.
//
// Selection. Each vertex's weights are divided by their sum (a bone listed
// twice sums); unweighted vertices go to no body. A bone takes the vertices whose dominant weight is
// its own (Dominant; ties go to the bone whose joint is nearest the vertex:
// a vertex shared equally by a bone and its parent sits at the child's
// head, where the child's body starts), or also those where
// its share reaches WeightThreshold (Threshold). A bone gets a body when its
// share of the skin's total weight reaches MinWeightShare (within its part
// of a skin split over several glTF skins, Skin.Segments) and the
// bounding-box diagonal of its vertices reaches MinSize times the whole
// skin's (engines simulate sizes: a body 1% of its ragdoll is 1.75 cm in a
// 1.75 m figure).
// Roots always stay, to anchor their chain; any other bone merges into its
// nearest ancestor with a body (fingers into the hand, end and twist bones
// into their parent). A root that takes no vertex gives way to its chain's
// first body when it holds one chain, is dropped when it holds none, and
// with two or more the bone where they meet anchors them (a sphere a
// quarter of the way to its nearest child body).
//
// Surface. With the skin's triangles, a body takes the surface its bones
// move, not only its vertices: a low-poly skin's triangle whose corners
// belong to two or three bodies would otherwise lie in none (RiggedFigure's
// torso, Fox's back). Such a triangle is split at its edges' midpoints,
// weighted by interpolating its corners', each point going to the body of
// its dominant bone, until the pieces spanning bodies are smaller than
// 0.4% of the skin's diagonal; a triangle whose corners share a body is
// inside that body's convex collider already.
//
// Bodies and colliders. A body's frame is its bone's rest transform
// without scale (mirrors flip X, as generate frames body nodes). Its axis
// points to the mean of its (distinct) child joints, else to its vertices'
// centroid, else along its parent's direction. The collider, fitted in
// the body frame, contains every vertex and surface point the body takes: a capsule along the
// axis (fit.CapsuleAlong; the vertices' enclosing sphere instead when that
// is no larger, a ball-shaped body; for the trunk — pelvis, spine, head —
// the minimum box instead when its volume is under 0.8 of that, a low
// torso or head being far from round), a box or sphere (package fit), or a convex hull
// (package hull). Vertices that all coincide get an anchor-sized sphere.
//
// Joints. One per body with a parent body, at the child bone's head, its
// frame given in both bodies (same world pose, +Y along the child's axis),
// the joined bodies not colliding. Each joint is classified by its child
// bone's place in the skeleton, never its name (Class: spine, neck, head,
// clavicle, shoulder, elbow, wrist, finger, hip, knee, ankle, toe, tail;
// see anatomy), and takes the rule of the limit table named for its class
// unless a rule not named for a class matches the bone's name; joints the
// skeleton does not classify take the first rule whose glob matches the
// name (RuleFor; by default DefaultLimits, one cone for every joint; the
// profiles' ragdoll preset carries a humanoid table):
// symmetric swing (about X and Z) and twist (about Y) half-angles, as in
// Unreal's Physics Asset constraints (swing 1, swing 2, twist limits in
// [0°, 180°]; Bone1 the child, Bone2 the parent). Godot's "Create Physical
// Skeleton" joins a body per bone with unlimited pin joints; its ragdoll
// guide then deletes bones too small to matter (fingers, helpers) by hand,
// which MinWeightShare and MinSize do here. The preset's humanoid angles
// are this project's choice, not either engine's.
package ragdoll
