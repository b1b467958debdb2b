# Generates the legacy-form test files under legacy/ (run once; committed).
import json, sys
sys.path.insert(0, '.')
exec(open('gen_bad.py').read().split("cases = {}")[0])  # reuse mesh helpers and bases

def write(name, d):
    with open(f'legacy/{name}.gltf', 'w') as f:
        json.dump(d, f, indent=1, sort_keys=True)
        f.write('\n')

# The seed's OMI_physics_body: type enum, inertiaTensor, node-level
# OMI_physics_shape on collider children, a trigger body.
d = base_doc()
m = add_mesh(d, TET_V, TET_I, 4, 'hull')
d['extensionsUsed'] = ['OMI_physics_body', 'OMI_physics_shape']
d['extensions'] = {'OMI_physics_shape': {'shapes': [
    {'type': 'box', 'box': {'size': [1, 2, 3]}},
    {'type': 'sphere', 'sphere': {'radius': 0.5}},
    {'type': 'convex', 'convex': {'mesh': m}}]}}
d['nodes'] = [
    {'name': 'StaticBox', 'children': [1], 'extensions': {'OMI_physics_body': {'type': 'static'}}},
    {'name': 'StaticShape', 'extensions': {'OMI_physics_shape': {'shape': 0}}},
    {'name': 'Rigid', 'children': [3], 'translation': [0, 3, 0], 'extensions': {'OMI_physics_body': {
        'type': 'rigid', 'mass': 4, 'linearVelocity': [1, 0, 0],
        'inertiaTensor': [2, 0.5, 0, 0.5, 3, 0, 0, 0, 4]}}},
    {'name': 'RigidHull', 'mesh': m, 'extensions': {'OMI_physics_shape': {'shape': 2}}},
    {'name': 'Goal', 'children': [5, 6], 'extensions': {'OMI_physics_body': {'type': 'trigger'}}},
    {'name': 'GoalA', 'extensions': {'OMI_physics_shape': {'shape': 1}}},
    {'name': 'GoalB', 'translation': [1, 0, 0], 'extensions': {'OMI_physics_shape': {'shape': 0}}},
    {'name': 'Character', 'extensions': {'OMI_physics_body': {'type': 'character'}}},
]
d['scenes'] = [{'nodes': [0, 2, 4, 7]}]
write('seed_body', d)

# The seed's OMI_physics_joint example (document constraints, a joint node
# with nodeA/nodeB), with the bodies given shapes.
d = base_doc()
del d['buffers'], d['bufferViews'], d['accessors'], d['meshes']
d['extensionsUsed'] = ['OMI_physics_body', 'OMI_physics_joint', 'OMI_physics_shape']
d['extensions'] = {
    'OMI_physics_joint': {'constraints': [{'linearAxes': [0, 1, 2]}, {'angularAxes': [0, 2], 'lowerLimit': -0.5, 'upperLimit': 0.5, 'stiffness': 100}]},
    'OMI_physics_shape': {'shapes': [{'type': 'capsule', 'capsule': {'height': 0.5, 'radiusTop': 0.1, 'radiusBottom': 0.1}}]}}
body = lambda t: {'OMI_physics_body': {'motion': {'type': t}, 'collider': {'shape': 0}}}
d['nodes'] = [
    {'name': 'PinJoint', 'translation': [-0.23, 0.6, 0.0], 'extensions': {'OMI_physics_joint': {'constraints': [0, 1], 'nodeA': 1, 'nodeB': 2}}},
    {'name': 'BodyA', 'rotation': [0.0, 0.0, -0.17364804446697, 0.984807789325714], 'translation': [-0.45, 0.68, 0.0], 'extensions': body('dynamic')},
    {'name': 'BodyB', 'translation': [0.0, 0.6, 0.0], 'extensions': body('dynamic')},
]
d['scenes'] = [{'nodes': [0, 1, 2]}]
write('seed_joint', d)

# The 2024 KHR_collision_shapes form the seed is written against.
d = base_doc()
m = add_mesh(d, TET_V, TET_I, 4, 'hull')
d['extensionsUsed'] = ['KHR_collision_shapes', 'KHR_physics_rigid_bodies']
d['extensions'] = {
    'KHR_collision_shapes': {'shapes': [
        {'type': 'sphere', 'sphere': {'radius': 0.5}},
        {'type': 'mesh', 'mesh': {'mesh': m}, 'extensions': {'KHR_physics_rigid_bodies': {'convexHull': True}}},
        {'type': 'mesh', 'mesh': {'mesh': m}},
        {'type': 'capsule', 'capsule': {'height': 1, 'radiusTop': 0.2, 'radiusBottom': 0.2}}]},
    'KHR_physics_rigid_bodies': {'physicsMaterials': [{'staticFriction': 0.3}]}}
kb = lambda x: {'KHR_physics_rigid_bodies': x}
d['nodes'] = [
    {'name': 'Body', 'children': [1, 2], 'extensions': kb({'motion': {'mass': 3}})},
    {'name': 'Ball', 'extensions': kb({'collider': {'shape': 0, 'physicsMaterial': 0}})},
    {'name': 'Hull', 'mesh': m, 'extensions': kb({'collider': {'shape': 1}})},
    {'name': 'Ground', 'mesh': m, 'extensions': kb({'collider': {'shape': 2}})},
    {'name': 'Sensor', 'extensions': kb({'trigger': {'shape': 3}})},
]
d['scenes'] = [{'nodes': [0, 3, 4]}]
write('khr_collision_shapes', d)
