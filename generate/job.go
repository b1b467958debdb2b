package generate

import (
	"context"

	"github.com/autocollide/autocollide/geom"
	"github.com/autocollide/autocollide/gltfio"
	"github.com/autocollide/autocollide/mesh"
	"github.com/autocollide/autocollide/physics"
)

// job is the generation of one asset once it is planned: what it reads
// (the asset, its mesh instances and world transforms, the options), what
// it decided (the plan, and the colliders made for each part), and what
// it writes (the physics model, then the asset's edits, and the report).
// Its methods are the steps of write, each given the job instead of the
// asset's state piece by piece. A job lives for one call of Asset.
type job struct {
	a     *gltfio.Asset
	opt   Options
	ex    *mesh.Result
	world []geom.Mat4 // every node's world transform
	plan  *assetPlan
	made  map[int]*made // by part index, from makeColliders
	model *physics.Model
	res   resources
	// jointDefs numbers the ragdolls' joint descriptions by their rule
	// and limit, shared by all of the asset's ragdolls.
	jointDefs map[string]int
	rep       *Report
}

// resources are the document-level physics every generated collider
// refers to, as indices into the generated model (-1: the default).
type resources struct {
	material, filter int
}

// newJob starts the job of writing plan pl into asset a; the model
// holds the options' material and filter.
func newJob(a *gltfio.Asset, opt Options, ex *mesh.Result, world []geom.Mat4, pl *assetPlan, rep *Report) *job {
	j := &job{a: a, opt: opt, ex: ex, world: world, plan: pl, model: physics.NewModel(),
		res: resources{material: -1, filter: -1}, jointDefs: map[string]int{}, rep: rep}
	if m := opt.Body.Material; m != nil {
		j.model.Materials = append(j.model.Materials, *m)
		j.res.material = 0
	}
	if f := opt.Body.Filter; f != nil {
		j.model.Filters = append(j.model.Filters, *f)
		j.res.filter = 0
	}
	return j
}

// write makes the colliders, merges the bodies that overlap, carries out
// the plan's node changes, makes each body and ragdoll, and writes the
// model into the asset, which is then checked.
func (j *job) write(ctx context.Context) error {
	j.made = makeColliders(ctx, j.a.Doc, j.ex, j.plan.parts, j.opt.Run)
	if err := checkColliderCount(j.made); err != nil {
		return err
	}
	notes, warnings := j.mergeOverlapping()
	j.rep.Notes, j.rep.Warnings = append(j.rep.Notes, notes...), append(j.rep.Warnings, warnings...)
	if err := j.carryOut(); err != nil {
		return err
	}
	for _, b := range j.plan.bodies {
		if err := ctx.Err(); err != nil {
			return err
		}
		if err := j.body(ctx, b); err != nil {
			return err
		}
	}
	if err := j.ragdolls(ctx); err != nil {
		return err
	}
	if j.rep.Bodies == 0 {
		return nil
	}
	warn, err := j.emit()
	if err != nil {
		return err
	}
	j.rep.Warnings = append(j.rep.Warnings, warn...)
	return checkResult(j.a)
}
