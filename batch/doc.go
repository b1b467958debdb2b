// Package batch runs generate over many glTF files: it expands folders
// into a sorted list of jobs (include/exclude globs, output tree mirroring
// the input tree), optionally keeps one deterministic shard of them (by
// path hash, or balanced by a cost estimate from each file's declared
// geometry: balance.go), runs them on a bounded worker pool where one
// file's failure never stops the others, skips files whose output is
// already current (a content-keyed cache beside the outputs that records
// no path, so output folders can move), and collects one result per file,
// in input order, into a Report that is written as JSON (with a committed
// schema), Markdown or one HTML page. With Options.Previews, each worker
// also draws the output it wrote (package preview) into a PNG and a
// thumbnail for the page.
//
// Every output records a Fingerprint (tool, options and source hashes)
// in its generated extras; Check mode compares it with what a run would
// record to tell, without writing or generating, which files a run would
// change (check.go). DryRun generates in memory and validates instead.
//
// Determinism: results are ordered by job, not by completion; every
// output depends only on its own input and options, so outputs and
// reports are byte-identical for any worker count and any sharding
// (apart from the timing fields, which Report.StripTimings clears).
//
// Writes: CheckWrites refuses, before a run, any listing whose outputs
// (files, .bin files, copies, previews, cache files, the report) would
// land on an input, a resource of one, or each other (writes.go). The
// cache records the SHA-256 of every file of an output and redoes it
// when any is missing or different. A folder that cannot be listed is a
// failed job, not an error of the whole run.
//
// Interruption: the context is checked before each file and inside
// generation; outputs are written by atomic rename (a .gltf's .bin
// first, under a new name), so a cancelled or killed run leaves only
// complete outputs; a re-run removes the killed run's temporaries from
// its output folders and (served by the cache) completes the rest.
package batch
