// Package houserules checks, in its tests, the house rules that can be
// checked mechanically over the whole module (see ARCHITECTURE.md): today
// that no product Go file grows past maxLines. It has no exported API.
package houserules
