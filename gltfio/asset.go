package gltfio

import (
	"errors"
	"fmt"
	"regexp"
	"slices"
	"strconv"
)

// The glTF version autocollide implements. A file may say a later 2.x
// version (2.x files are backward compatible), but one whose
// asset.minVersion is later than this requires features autocollide does
// not know, and the specification asks a loader to refuse it.
const (
	majorVersion = 2
	minorVersion = 0
)

// RequiredOK lists the extensions a file may name in extensionsRequired.
// A loader must refuse a file that requires an extension it does not
// support, since the file's content may mean something else without it.
// autocollide accepts:
//   - the extensions it decodes that change what geometry is
//     (quantized and compressed positions and indices, GPU instancing);
//   - the physics extensions it reads and rewrites (they belong in
//     extensionsUsed only; validate and generate report them as required);
//   - extensions that by their specification change only how the asset
//     renders (materials, textures, lights, animation, metadata), never
//     positions, indices or node transforms, which are all it reads.
//
// Any other required extension, a geometry one it does not decode included,
// is refused with its name.
var RequiredOK = []string{
	// geometry, decoded
	"KHR_mesh_quantization",
	"EXT_meshopt_compression",
	"KHR_meshopt_compression",
	"KHR_draco_mesh_compression",
	"EXT_mesh_gpu_instancing",
	// physics, read and rewritten
	"OMI_physics_shape",
	"OMI_physics_body",
	"OMI_physics_joint",
	"OMI_physics_gravity",
	"OMI_collider",
	"KHR_implicit_shapes",
	"KHR_physics_rigid_bodies",
	"KHR_collision_shapes",
	// rendering only
	"KHR_materials_anisotropy",
	"KHR_materials_clearcoat",
	"KHR_materials_diffuse_transmission",
	"KHR_materials_dispersion",
	"KHR_materials_emissive_strength",
	"KHR_materials_ior",
	"KHR_materials_iridescence",
	"KHR_materials_pbrSpecularGlossiness",
	"KHR_materials_sheen",
	"KHR_materials_specular",
	"KHR_materials_transmission",
	"KHR_materials_unlit",
	"KHR_materials_variants",
	"KHR_materials_volume",
	"KHR_texture_basisu",
	"KHR_texture_transform",
	"EXT_texture_webp",
	"EXT_texture_avif",
	"KHR_lights_punctual",
	"EXT_lights_image_based",
	"KHR_animation_pointer",
	"KHR_xmp_json_ld",
}

var versionPattern = regexp.MustCompile(`^[0-9]+\.[0-9]+$`)

// checkAsset checks what the asset object and the root's
// extensionsRequired say a loader must understand: a glTF 2.x version,
// a minVersion no later than the version nor than 2.0, and only required
// extensions in RequiredOK.
func checkAsset(tree *Object) error {
	asset := tree.Obj("asset")
	if asset == nil {
		return errors.New("asset: missing (not a glTF document)")
	}
	v, _ := asset.Get("version")
	s, ok := v.(string)
	if !ok {
		return errors.New("asset.version: missing or not a string")
	}
	major, minor, ok := parseVersion(s)
	if !ok || major != majorVersion {
		return fmt.Errorf("asset.version: %s is not glTF 2.x", short(s))
	}
	if mv, present := asset.Get("minVersion"); present {
		ms, isString := mv.(string)
		mmaj, mmin, ok := parseVersion(ms)
		switch {
		case !isString:
			return errors.New("asset.minVersion: not a string")
		case !ok:
			return fmt.Errorf("asset.minVersion: %s is not a version like \"2.0\"", short(ms))
		case mmaj > major || mmaj == major && mmin > minor:
			return fmt.Errorf("asset.minVersion: %q is later than asset.version %q (the specification forbids it)", ms, s)
		case mmaj > majorVersion || mmaj == majorVersion && mmin > minorVersion:
			return fmt.Errorf("asset.minVersion: the file requires glTF %s; autocollide reads glTF %d.%d", ms, majorVersion, minorVersion)
		}
	}
	if v, present := tree.Get("extensionsRequired"); present {
		req, ok := v.([]any)
		if !ok {
			return errors.New("extensionsRequired: not an array")
		}
		for i, e := range req {
			name, ok := e.(string)
			if !ok {
				return fmt.Errorf("extensionsRequired[%d]: not a string", i)
			}
			if !slices.Contains(RequiredOK, name) {
				return fmt.Errorf("extensionsRequired[%d]: the file requires %s, which autocollide does not support (it may change the geometry)", i, short(name))
			}
		}
	}
	return nil
}

// parseVersion splits a "<major>.<minor>" version.
func parseVersion(s string) (major, minor int, ok bool) {
	if !versionPattern.MatchString(s) || len(s) > 16 {
		return 0, 0, false
	}
	for i := range s {
		if s[i] == '.' {
			a, err1 := strconv.Atoi(s[:i])
			b, err2 := strconv.Atoi(s[i+1:])
			return a, b, err1 == nil && err2 == nil
		}
	}
	return 0, 0, false
}

// short quotes a string from the file for an error message, cut to a
// few dozen bytes.
func short(s string) string {
	if len(s) > 64 {
		s = s[:64] + "…"
	}
	return strconv.Quote(s)
}
