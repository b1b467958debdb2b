package inspect

import (
	"github.com/autocollide/autocollide/g4mf"
	"github.com/autocollide/autocollide/physics"
)

// G4MFRevision is the revision a 3D G4MF file's description names.
const G4MFRevision = "3D"

// DescribeG4MF reads a 3D G4MF file (.g4tf or .g4b) and describes its
// physics in the same terms, family "g4mf": nodes and shapes keep their
// G4MF indices (a hull's mesh index is the imported glTF mesh's). It reads through g4mf's importer (the physics
// as OMI, whose meaning G4MF shares: an absent mass reads as 1 kg); what
// the import does not carry (materials, other general shapes) is listed
// in Warnings at its G4MF path.
func DescribeG4MF(path string) (*File, error) {
	a, origins, warns, err := g4mf.ImportAssetShapes(path, physics.OMI, physics.EncodeOptions{})
	if err != nil {
		return nil, err
	}
	f, err := Describe(a)
	if err != nil {
		return nil, err
	}
	f.Family, f.Revision, f.Extensions = "g4mf", G4MFRevision, []string{}
	for _, w := range warns {
		f.Warnings = append(f.Warnings, w.Path+": "+w.Message)
	}
	rename := func(s *Shape) {
		if s != nil && s.Index >= 0 && s.Index < len(origins) {
			s.Index = origins[s.Index]
		}
	}
	for _, at := range append([]*Attached{&f.Unattached}, bodiesAttached(f)...) {
		for i := range at.Colliders {
			rename(at.Colliders[i].Shape)
		}
		for i := range at.Triggers {
			rename(at.Triggers[i].Shape)
		}
	}
	return f, nil
}

func bodiesAttached(f *File) []*Attached {
	out := make([]*Attached, len(f.Bodies))
	for i := range f.Bodies {
		out[i] = &f.Bodies[i].Attached
	}
	return out
}
