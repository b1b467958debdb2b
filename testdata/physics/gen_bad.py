# Generates the hand-made physics test files (run once; the files are committed).
import json, base64, struct, copy, math, os

def mesh_buffer(verts, idx):
    vb = b''.join(struct.pack('<3f', *v) for v in verts)
    ib = b''.join(struct.pack('<I', i) for i in idx)
    data = vb + ib
    mn = [min(v[k] for v in verts) for k in range(3)]
    mx = [max(v[k] for v in verts) for k in range(3)]
    return data, len(vb), len(ib), mn, mx

def add_mesh(doc, verts, idx, mode=4, name='m'):
    data, nvb, nib, mn, mx = mesh_buffer(verts, idx)
    b = len(doc['buffers'])
    doc['buffers'].append({'byteLength': len(data), 'uri': 'data:application/octet-stream;base64,' + base64.b64encode(data).decode()})
    bv0 = len(doc['bufferViews'])
    doc['bufferViews'] += [{'buffer': b, 'byteOffset': 0, 'byteLength': nvb}, {'buffer': b, 'byteOffset': nvb, 'byteLength': nib}]
    a0 = len(doc['accessors'])
    doc['accessors'] += [
        {'bufferView': bv0, 'componentType': 5126, 'count': len(verts), 'type': 'VEC3', 'min': mn, 'max': mx},
        {'bufferView': bv0 + 1, 'componentType': 5125, 'count': len(idx), 'type': 'SCALAR'}]
    prim = {'attributes': {'POSITION': a0}, 'indices': a0 + 1}
    if mode != 4:
        prim['mode'] = mode
    doc['meshes'].append({'name': name, 'primitives': [prim]})
    return len(doc['meshes']) - 1

TET_V = [(0, 0, 0), (1, 0, 0), (0, 1, 0), (0, 0, 1)]
TET_I = [0, 2, 1, 0, 1, 3, 0, 3, 2, 1, 2, 3]
# Octahedron with the +Z apex pushed inside: closed but concave.
DENT_V = [(1, 0, 0), (-1, 0, 0), (0, 1, 0), (0, -1, 0), (0, 0, -0.5), (0, 0, -1)]
DENT_I = [0, 2, 4, 2, 1, 4, 1, 3, 4, 3, 0, 4, 2, 0, 5, 1, 2, 5, 3, 1, 5, 0, 3, 5]

def sphere(nu=20, nv=16):
    v = [(0, 0, 1)]
    for i in range(1, nv):
        th = math.pi * i / nv
        for j in range(nu):
            ph = 2 * math.pi * j / nu
            v.append((math.sin(th) * math.cos(ph), math.sin(th) * math.sin(ph), math.cos(th)))
    v.append((0, 0, -1))
    idx = []
    ring = lambda i, j: 1 + (i - 1) * nu + (j % nu)
    for j in range(nu):
        idx += [0, ring(1, j), ring(1, j + 1)]
    for i in range(1, nv - 1):
        for j in range(nu):
            a, b, c, d = ring(i, j), ring(i, j + 1), ring(i + 1, j), ring(i + 1, j + 1)
            idx += [a, c, b, b, c, d]
    last = len(v) - 1
    for j in range(nu):
        idx += [ring(nv - 1, j), last, ring(nv - 1, j + 1)]
    return v, idx

def base_doc():
    return {'asset': {'version': '2.0'}, 'buffers': [], 'bufferViews': [], 'accessors': [], 'meshes': [], 'scene': 0}

def omi_base(hull=(TET_V, TET_I, 4)):
    d = base_doc()
    m = add_mesh(d, hull[0], hull[1], hull[2], 'hull')
    d['extensionsUsed'] = ['OMI_physics_shape', 'OMI_physics_body', 'OMI_physics_joint']
    d['extensions'] = {
        'OMI_physics_shape': {'shapes': [
            {'type': 'box', 'box': {'size': [1, 2, 3]}},
            {'type': 'sphere', 'sphere': {'radius': 0.5}},
            {'type': 'capsule', 'capsule': {'height': 1, 'radiusTop': 0.25, 'radiusBottom': 0.25}},
            {'type': 'cylinder', 'cylinder': {'height': 2, 'radiusTop': 0.5, 'radiusBottom': 0.5}},
            {'type': 'convex', 'convex': {'mesh': m}}]},
        'OMI_physics_body': {
            'physicsMaterials': [{'staticFriction': 0.5, 'dynamicFriction': 0.4, 'restitution': 0.1}],
            'collisionFilters': [{'collisionSystems': ['a'], 'collideWithSystems': ['b']}]},
        'OMI_physics_joint': {'physicsJoints': [{
            'limits': [{'linearAxes': [0, 1, 2], 'min': 0, 'max': 0}],
            'drives': [{'type': 'angular', 'mode': 'force', 'axis': 0, 'velocityTarget': 1, 'damping': 2}]}]}}
    body = lambda x: {'OMI_physics_body': x}
    d['nodes'] = [
        {'name': 'Body', 'children': [1, 2, 3], 'extensions': body({'motion': {'type': 'dynamic', 'mass': 2, 'inertiaDiagonal': [1, 1, 1], 'inertiaOrientation': [0, 0, 0, 1]}})},
        {'name': 'Collider', 'extensions': body({'collider': {'shape': 0, 'physicsMaterial': 0, 'collisionFilter': 0}})},
        {'name': 'TriggerParent', 'children': [4], 'extensions': body({'trigger': {'nodes': [4]}})},
        {'name': 'Joint', 'extensions': {'OMI_physics_joint': {'joint': 0, 'connectedNode': 5}}},
        {'name': 'TriggerChild', 'extensions': body({'trigger': {'shape': 1}})},
        {'name': 'Other', 'children': [6], 'extensions': body({'motion': {'type': 'dynamic'}})},
        {'name': 'Hull', 'mesh': m, 'extensions': body({'collider': {'shape': 4}})},
        {'name': 'Capsule', 'extensions': body({'collider': {'shape': 2}})},
        {'name': 'Cylinder', 'extensions': body({'collider': {'shape': 3}})},
    ]
    d['scenes'] = [{'nodes': [0, 5, 7, 8]}]
    return d

def khr_base(hull=(TET_V, TET_I, 4)):
    d = base_doc()
    m = add_mesh(d, hull[0], hull[1], hull[2], 'hull')
    d['extensionsUsed'] = ['KHR_implicit_shapes', 'KHR_physics_rigid_bodies']
    d['extensions'] = {
        'KHR_implicit_shapes': {'shapes': [
            {'type': 'sphere', 'sphere': {'radius': 0.5}},
            {'type': 'box', 'box': {'size': [1, 1, 1]}}]},
        'KHR_physics_rigid_bodies': {
            'physicsMaterials': [{'staticFriction': 0.5}],
            'physicsJoints': [{'limits': [{'angularAxes': [0], 'min': -1, 'max': 1}]}]}}
    body = lambda x: {'KHR_physics_rigid_bodies': x}
    d['nodes'] = [
        {'name': 'Body', 'children': [1, 2], 'extensions': body({'motion': {'mass': 2}})},
        {'name': 'Sphere', 'extensions': body({'collider': {'geometry': {'shape': 0}, 'physicsMaterial': 0}})},
        {'name': 'Hull', 'mesh': m, 'extensions': body({'collider': {'geometry': {'mesh': m, 'convexHull': True}}})},
        {'name': 'TriggerParent', 'children': [4], 'extensions': body({'trigger': {'nodes': [4]}})},
        {'name': 'TriggerChild', 'extensions': body({'trigger': {'geometry': {'shape': 1}}})},
        {'name': 'Joint', 'extensions': body({'joint': {'joint': 0, 'connectedNode': 0}})},
        {'name': 'Empty'},
    ]
    d['scenes'] = [{'nodes': [0, 3, 5, 6]}]
    return d

def nb(d, i, fam='OMI_physics_body'):
    return d['nodes'][i]['extensions'][fam]

cases = {}
def case(name, base, edit):
    d = base() if callable(base) else base
    edit(d)
    cases[name] = d

def setp(path_fn):
    return path_fn

S = lambda d: d['extensions']['OMI_physics_shape']['shapes']
J = lambda d: d['extensions']['OMI_physics_joint']['physicsJoints'][0]
case('omi_shape_unknown_type', omi_base, lambda d: S(d)[0].update({'type': 'cone'}))
case('omi_box_negative_size', omi_base, lambda d: S(d)[0]['box'].update({'size': [1, -2, 3]}))
case('omi_sphere_negative_radius', omi_base, lambda d: S(d)[1]['sphere'].update({'radius': -0.5}))
case('omi_capsule_negative_radius', omi_base, lambda d: S(d)[2]['capsule'].update({'radiusTop': -0.25}))
case('omi_cylinder_negative_height', omi_base, lambda d: S(d)[3]['cylinder'].update({'height': -2}))
case('omi_convex_missing_mesh', omi_base, lambda d: S(d)[4].update({'convex': {}}))
case('omi_convex_mesh_out_of_range', omi_base, lambda d: S(d)[4].update({'convex': {'mesh': 7}}))
case('omi_collider_shape_out_of_range', omi_base, lambda d: nb(d, 1)['collider'].update({'shape': 9}))
case('omi_material_out_of_range', omi_base, lambda d: nb(d, 1)['collider'].update({'physicsMaterial': 3}))
case('omi_motion_bad_type', omi_base, lambda d: nb(d, 0)['motion'].update({'type': 'rigid'}))
case('omi_motion_negative_mass', omi_base, lambda d: nb(d, 0)['motion'].update({'mass': -2}))
case('omi_motion_short_velocity', omi_base, lambda d: nb(d, 0)['motion'].update({'linearVelocity': [1, 2]}))
case('omi_inertia_orientation_not_unit', omi_base, lambda d: nb(d, 0)['motion'].update({'inertiaOrientation': [0, 0, 0, 2]}))
case('omi_inertia_negative', omi_base, lambda d: nb(d, 0)['motion'].update({'inertiaDiagonal': [1, -1, 1]}))
case('omi_trigger_empty', omi_base, lambda d: (nb(d, 2).update({'trigger': {}}), nb(d, 4).pop('trigger'), nb(d, 4).update({'collider': {'shape': 1}})))
case('omi_trigger_shape_and_nodes', omi_base, lambda d: nb(d, 2)['trigger'].update({'shape': 1}))
case('omi_compound_trigger_not_descendant', omi_base, lambda d: (nb(d, 2)['trigger'].update({'nodes': [7]}), nb(d, 7).update({'trigger': {'shape': 1}})))
case('omi_compound_trigger_member_without_trigger', omi_base, lambda d: nb(d, 4).pop('trigger') and nb(d, 4).update({'collider': {'shape': 1}}))
case('omi_compound_trigger_with_filter', omi_base, lambda d: nb(d, 2)['trigger'].update({'collisionFilter': 0}))
case('omi_filter_both_lists', omi_base, lambda d: d['extensions']['OMI_physics_body']['collisionFilters'][0].update({'notCollideWithSystems': ['c']}))
case('omi_material_negative_friction', omi_base, lambda d: d['extensions']['OMI_physics_body']['physicsMaterials'][0].update({'dynamicFriction': -1}))
case('omi_joint_missing_connected', omi_base, lambda d: d['nodes'][3]['extensions']['OMI_physics_joint'].pop('connectedNode'))
case('omi_joint_def_out_of_range', omi_base, lambda d: d['nodes'][3]['extensions']['OMI_physics_joint'].update({'joint': 4}))
case('omi_joint_no_dynamic_body', omi_base, lambda d: (nb(d, 0)['motion'].update({'type': 'kinematic'}), nb(d, 5)['motion'].update({'type': 'static'})))
case('omi_joint_self', omi_base, lambda d: d['nodes'][3]['extensions']['OMI_physics_joint'].update({'connectedNode': 3}))
case('omi_joint_to_trigger', omi_base, lambda d: d['nodes'][3]['extensions']['OMI_physics_joint'].update({'connectedNode': 4}))
case('omi_limit_min_gt_max', omi_base, lambda d: J(d)['limits'][0].update({'min': 1, 'max': -1}))
case('omi_limit_bad_axis', omi_base, lambda d: J(d)['limits'][0].update({'linearAxes': [3]}))
case('omi_limit_no_axes', omi_base, lambda d: J(d)['limits'][0].pop('linearAxes'))
case('omi_drive_missing_axis', omi_base, lambda d: J(d)['drives'][0].pop('axis'))
case('omi_drive_target_without_damping', omi_base, lambda d: J(d)['drives'][0].pop('damping'))
case('omi_not_declared', omi_base, lambda d: d['extensionsUsed'].remove('OMI_physics_joint'))
case('omi_gravity_shape_out_of_range', omi_base, lambda d: (d['extensionsUsed'].append('OMI_physics_gravity'), d['nodes'][7].update({'extensions': {**d['nodes'][7]['extensions'], 'OMI_physics_gravity': {'type': 'shaped', 'gravity': 9.8, 'shaped': {'shape': 12}}}})))
case('omi_hull_not_triangles', lambda: omi_base((TET_V, TET_I, 1)), lambda d: None)
case('omi_hull_too_many_vertices', lambda: omi_base((*sphere(), 4)), lambda d: None)
KS = lambda d: d['extensions']['KHR_implicit_shapes']['shapes']
KB = lambda d: d['extensions']['KHR_physics_rigid_bodies']
kn = lambda d, i: nb(d, i, 'KHR_physics_rigid_bodies')
case('khr_geometry_shape_and_mesh', khr_base, lambda d: kn(d, 2)['collider']['geometry'].update({'shape': 0}))
case('khr_geometry_mesh_out_of_range', khr_base, lambda d: kn(d, 2)['collider']['geometry'].update({'mesh': 5}))
case('khr_geometry_node_without_mesh', khr_base, lambda d: kn(d, 2)['collider'].update({'geometry': {'node': 6, 'convexHull': True}}))
case('khr_collider_missing_geometry', khr_base, lambda d: kn(d, 1)['collider'].pop('geometry'))
case('khr_limit_both_axes', khr_base, lambda d: KB(d)['physicsJoints'][0]['limits'][0].update({'linearAxes': [1]}))
case('khr_shape_negative_radius', khr_base, lambda d: KS(d)[0]['sphere'].update({'radius': -1}))
case('khr_shape_missing_type', khr_base, lambda d: KS(d)[1].pop('type'))
case('khr_compound_of_compounds', khr_base, lambda d: (kn(d, 4).update({'trigger': {'nodes': [6]}}), d['nodes'][4].update({'children': [6]}), d['nodes'][6].update({'extensions': {'KHR_physics_rigid_bodies': {'trigger': {'geometry': {'shape': 1}}}}}), d['scenes'][0]['nodes'].remove(6)))
case('khr_material_negative_friction', khr_base, lambda d: KB(d)['physicsMaterials'][0].update({'staticFriction': -0.5}))
case('khr_mass_negative', khr_base, lambda d: kn(d, 0)['motion'].update({'mass': -2}))
case('khr_joint_without_root', khr_base, lambda d: KB(d).pop('physicsJoints'))
# Issue 21 item 7: what the specs prohibit.
case('khr_box_zero_size', khr_base, lambda d: KS(d)[1]['box'].update({'size': [1, 0, 1]}))
case('khr_cylinder_zero_radii', khr_base, lambda d: KS(d).append({'type': 'cylinder', 'cylinder': {'height': 1, 'radiusTop': 0, 'radiusBottom': 0}}))
case('khr_filter_both_lists', khr_base, lambda d: (KB(d).update({'collisionFilters': [{'collisionSystems': ['a'], 'collideWithSystems': ['b'], 'notCollideWithSystems': ['c']}]}), kn(d, 1)['collider'].update({'collisionFilter': 0})))
case('khr_limit_axis_3', khr_base, lambda d: KB(d)['physicsJoints'][0]['limits'][0].update({'angularAxes': [3]}))
case('khr_limit_min_gt_max', khr_base, lambda d: KB(d)['physicsJoints'][0]['limits'][0].update({'min': 2, 'max': 1}))
case('khr_compound_trigger_not_descendant', khr_base, lambda d: (kn(d, 3)['trigger'].update({'nodes': [6]}), d['nodes'][6].update({'extensions': {'KHR_physics_rigid_bodies': {'trigger': {'geometry': {'shape': 1}}}}})))
case('khr_drive_stiffness_without_position', khr_base, lambda d: KB(d)['physicsJoints'][0].update({'drives': [{'type': 'angular', 'mode': 'force', 'axis': 0, 'stiffness': 1}]}))
case('omi_drive_axis_3', omi_base, lambda d: J(d)['drives'][0].update({'axis': 3}))
# OMI_physics_joint: the joint node is not a body, it is under a body, and
# its connected node is under a body.
case('omi_joint_on_body', omi_base, lambda d: (d['nodes'][0]['extensions'].update({'OMI_physics_joint': d['nodes'][3].pop('extensions')['OMI_physics_joint']})))
case('omi_joint_not_under_body', omi_base, lambda d: (d['nodes'][0]['children'].remove(3), d['scenes'][0]['nodes'].append(3)))
case('omi_joint_connected_not_under_body', omi_base, lambda d: d['nodes'][3]['extensions']['OMI_physics_joint'].update({'connectedNode': 8}))

# Accepted files: valid, or an older form readers accept; each draws only a
# warning (older forms) or a note at the path accepted_test expects.
accepted = {}
def accept(name, base, edit):
    d = base()
    edit(d)
    accepted[name] = d
accept('khr_required_shapes', khr_base, lambda d: d.update({'extensionsRequired': ['KHR_implicit_shapes']}))
accept('khr_hull_not_convex', lambda: khr_base((DENT_V, DENT_I, 4)), lambda d: None)
accept('omi_hull_not_convex', lambda: omi_base((DENT_V, DENT_I, 4)), lambda d: None)
accept('omi_hull_not_closed', lambda: omi_base((TET_V, TET_I[:9], 4)), lambda d: None)
accept('omi_required', omi_base, lambda d: d.update({'extensionsRequired': ['OMI_physics_body']}))
accept('omi_trigger_empty_older_form', omi_base, lambda d: nb(d, 2).update({'trigger': {}}))
accept('omi_motion_without_type_older_form', omi_base, lambda d: nb(d, 5)['motion'].pop('type'))
accept('omi_joint_under_static_body', omi_base, lambda d: nb(d, 0)['motion'].update({'type': 'static'}))
accept('omi_drive_position_without_stiffness', omi_base, lambda d: J(d)['drives'].append({'type': 'linear', 'mode': 'force', 'axis': 1, 'positionTarget': 1}))
# A target without its gain (default 0) adds nothing to the drive's force:
# a warning when the drive is left with no term, a note beside a working
# pair (the KHR spec editor's RigidBodies_Joint_09, a velocity motor).
accept('khr_drive_position_without_stiffness', khr_base, lambda d: KB(d)['physicsJoints'][0].update({'drives': [{'type': 'angular', 'mode': 'force', 'axis': 0, 'positionTarget': 1}]}))
accept('khr_drive_velocity_without_damping', khr_base, lambda d: KB(d)['physicsJoints'][0].update({'drives': [{'type': 'angular', 'mode': 'force', 'axis': 0, 'velocityTarget': 1}]}))
accept('khr_drive_velocity_motor', khr_base, lambda d: KB(d)['physicsJoints'][0].update({'drives': [{'type': 'angular', 'mode': 'acceleration', 'axis': 0, 'positionTarget': 0, 'velocityTarget': 1.5707964, 'damping': 1}]}))
accept('omi_drive_velocity_motor', omi_base, lambda d: J(d).update({'drives': [{'type': 'angular', 'mode': 'acceleration', 'axis': 0, 'positionTarget': 0, 'velocityTarget': 1.5707964, 'damping': 1}]}))
accept('omi_drive_spring_without_velocity_gain', omi_base, lambda d: J(d).update({'drives': [{'type': 'linear', 'mode': 'force', 'axis': 1, 'positionTarget': 0.5, 'stiffness': 10, 'velocityTarget': 1}]}))

os.makedirs('bad', exist_ok=True)
for name, d in cases.items():
    with open(f'bad/{name}.gltf', 'w') as f:
        json.dump(d, f, indent=1, sort_keys=True)
        f.write('\n')
os.makedirs('accepted', exist_ok=True)
for name, d in accepted.items():
    with open(f'accepted/{name}.gltf', 'w') as f:
        json.dump(d, f, indent=1, sort_keys=True)
        f.write('\n')
for name, d in {'omi_base': omi_base(), 'khr_base': khr_base()}.items():
    with open(f'good/{name}.gltf', 'w') as f:
        json.dump(d, f, indent=1, sort_keys=True)
        f.write('\n')
print(len(cases))
