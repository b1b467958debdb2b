// Package safefile is the one place the autocollide command reads a file
// it was given or that a file names: glTF and GLB inputs, their buffers
// and images, G4MF files, profiles (and what they extend), the project
// file and the batch cache. (obj and physics/schema, which serve only
// tools and tests, read with os.)
//
// Every read here
//   - opens with O_NONBLOCK and checks with fstat that it got a regular
//     file, so a named pipe, a device such as /dev/zero or a socket is
//     refused at once instead of hanging or streaming forever;
//   - reads with a size cap given by the caller, stopping as soon as the
//     cap is passed, even when the file grows while it is read;
//   - when the name comes from inside a file (a URI of a glTF buffer or
//     image), is confined to a folder (Dir): the name is resolved by
//     os.Root, which follows links and applies ".." one component at a
//     time on the real path, and refuses anything whose real path
//     leaves the folder, a link to /etc/passwd or a folder link up -> ..
//     included.
//
// Errors do not repeat the path (callers name the file once), wrap
// ErrOutside, ErrNotRegular or ErrTooLarge, and never carry a file's
// contents.
//
// The package stands apart from gltfio because profiles, the project
// file and the cache are not glTF: they read through the same checks
// without depending on the glTF loader.
package safefile
