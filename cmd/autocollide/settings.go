package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/autocollide/autocollide/batch"
	"github.com/autocollide/autocollide/generate"
	"github.com/autocollide/autocollide/mass"
	"github.com/autocollide/autocollide/profiles"
	"github.com/autocollide/autocollide/safefile"
	"github.com/spf13/pflag"
	"github.com/spf13/viper"
	"go.yaml.in/yaml/v3"
)

// ProjectFile is the name of the project settings file, looked for in
// each input's folder and then upward, like .editorconfig.
const ProjectFile = "autocollide.yaml"

// envPrefix prefixes the environment variables that set what the
// settings flags set (AUTOCOLLIDE_MAX_HULL_VERTICES=64).
const envPrefix = "AUTOCOLLIDE"

// settingKeys are the generate flags that may also come from the
// environment and the project file: the profile, the settings table's
// flags (profiles.Settings) and the mass, whose three keys exclude each
// other (overrideMass).
var settingKeys = func() []string {
	keys := []string{"profile"}
	for _, s := range profiles.Settings() {
		keys = append(keys, s.Flag)
		if s.OlderFlag != "" {
			keys = append(keys, s.OlderFlag)
		}
	}
	return append(keys, "density", "material", "mass")
}()

// addSettingFlags adds a flag for each row of the settings table; none
// has a default of its own (an unset flag leaves the lower layers').
func addSettingFlags(fl *pflag.FlagSet) {
	for _, s := range profiles.Settings() {
		help := s.Doc + " (" + s.Want()
		if s.Default != nil {
			help += fmt.Sprintf("; default from the profile: %v", s.Default)
		}
		help += ")"
		if s.Type == profiles.Switch {
			help = s.Doc + "; =false to turn off"
		}
		names := []string{s.Flag}
		if s.OlderFlag != "" {
			names = append(names, s.OlderFlag)
		}
		for i, name := range names {
			if i > 0 {
				help = "older name of --" + s.Flag + " (which wins when both are given)"
			}
			switch s.Type {
			case profiles.Whole:
				fl.Int(name, 0, help)
			case profiles.Number:
				fl.Float64(name, 0, help)
			case profiles.Switch:
				fl.Bool(name, s.Default == true, help)
			default:
				fl.String(name, "", help)
			}
		}
	}
}

// settings are the resolved generation settings of the inputs that share
// a project file.
type settings struct {
	project string // the project file ("" for none)
	profile *profiles.Profile
	opt     generate.Options
}

// layers resolves settings from flags over AUTOCOLLIDE_* variables over
// the project file over the profile, with viper; one per project file.
type layers struct {
	flags   *pflag.FlagSet
	getenv  func(string) (string, bool)
	found   map[string]string    // folder → project file ("" for none)
	byFile  map[string]*settings // project file → its settings
	ordered []*settings
	// load reads a profile (profiles.Load; review reads its edited
	// profile from memory).
	load func(nameOrFile string) (*profiles.Profile, error)
}

func newLayers(flags *pflag.FlagSet) *layers {
	return &layers{flags: flags, getenv: os.LookupEnv, found: map[string]string{}, byFile: map[string]*settings{}, load: profiles.Load}
}

// forInput returns the settings of an input file.
func (l *layers) forInput(input string) (*settings, error) {
	dir, err := filepath.Abs(filepath.Dir(input))
	if err != nil {
		return nil, err
	}
	project := l.projectFile(dir)
	if s, ok := l.byFile[project]; ok {
		return s, nil
	}
	s, err := l.resolve(project)
	if err != nil {
		return nil, err
	}
	l.byFile[project] = s
	l.ordered = append(l.ordered, s)
	return s, nil
}

// projectFile finds the nearest ProjectFile from dir upward.
func (l *layers) projectFile(dir string) string {
	if f, ok := l.found[dir]; ok {
		return f
	}
	f := filepath.Join(dir, ProjectFile)
	if st, err := os.Stat(f); err != nil || st.IsDir() {
		f = ""
		if parent := filepath.Dir(dir); parent != dir {
			f = l.projectFile(parent)
		}
	}
	l.found[dir] = f
	return f
}

func (l *layers) resolve(project string) (*settings, error) {
	v := viper.New()
	v.SetEnvPrefix(envPrefix)
	v.SetEnvKeyReplacer(strings.NewReplacer("-", "_"))
	for _, k := range settingKeys {
		if err := v.BindPFlag(k, l.flags.Lookup(k)); err != nil {
			return nil, err
		}
		if err := v.BindEnv(k); err != nil {
			return nil, err
		}
		if raw, ok := l.getenv(envName(k)); ok {
			if err := checkValue(l.flags.Lookup(k), raw); err != nil {
				return nil, fmt.Errorf("%s=%s: %v", envName(k), raw, err)
			}
		}
	}
	var at map[string]*yaml.Node
	if project != "" {
		data, err := safefile.ReadFile(project, profiles.MaxFileSize)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", project, err)
		}
		if at, err = checkProjectFile(project, data, l.flags); err != nil {
			return nil, err
		}
		v.SetConfigType("yaml")
		if err := v.ReadConfig(bytes.NewReader(data)); err != nil {
			return nil, fmt.Errorf("%s: %w", project, err)
		}
	}
	level := func(k string) string {
		switch _, env := l.getenv(envName(k)); {
		case l.flags.Changed(k):
			return "command line"
		case env:
			return "environment"
		case v.InConfig(k):
			return project
		}
		return ""
	}

	name := v.GetString("profile")
	if level("profile") == project && project != "" && profiles.IsFile(name) && !filepath.IsAbs(name) {
		name = filepath.Join(filepath.Dir(project), name)
	}
	p, err := l.load(name)
	if err != nil {
		if n := at["profile"]; level("profile") == project && n != nil {
			return nil, &profiles.Error{File: project, Line: n.Line, Column: n.Column, Msg: "profile: " + err.Error()}
		}
		return nil, err
	}
	if err := override(p, v, level); err != nil {
		return nil, err
	}
	opt, err := p.Options()
	if err != nil {
		return nil, err
	}
	// --format (flag, environment or project file) is a demand; a
	// profile's format is the default for files without physics.
	opt.Encoding.ExplicitFormat = level("format") != ""
	return &settings{project: project, profile: p, opt: opt}, nil
}

// checkMaxHullVertices is the one check of --max-hull-vertices, for
// every command that reads it (generate through its settings layers,
// validate directly): the settings table's range.
func checkMaxHullVertices(n int) error {
	s, _ := profiles.FlagSetting("max-hull-vertices")
	if _, err := s.Parse(strconv.Itoa(n)); err != nil {
		return fmt.Errorf("max-hull-vertices %d: %v", n, err)
	}
	return nil
}

// override sets on the profile what a higher layer gives, each value
// checked by the settings table; an error names the layer it came from.
// Of a setting's two flags (max-hulls, max-colliders) the newer wins.
func override(p *profiles.Profile, v *viper.Viper, level func(string) string) error {
	for _, s := range profiles.Settings() {
		for _, k := range []string{s.OlderFlag, s.Flag} {
			if k == "" || level(k) == "" {
				continue
			}
			if err := p.Set(s, v.GetString(k)); err != nil {
				return fmt.Errorf("%s: %s %s: %v", level(k), k, profiles.Excerpt(v.GetString(k)), err)
			}
		}
	}
	if l := level("method"); l != "" && p.Colliders.Method == "trimesh" && p.Motion != "static" {
		return fmt.Errorf("%s: method trimesh needs a static profile (%s is %s)", l, p.Name, p.Motion)
	}
	return overrideMass(p, v, level)
}

// overrideMass gives the mass of the highest layer that sets one of
// density, material and mass (at most one each layer) over the profile's.
func overrideMass(p *profiles.Profile, v *viper.Viper, level func(string) string) error {
	var top string
	var set []string
	for _, k := range []string{"density", "material", "mass"} {
		switch l := level(k); {
		case l == "":
		case top == "" || layerRank(l) < layerRank(top):
			top, set = l, []string{k}
		case l == top:
			set = append(set, k)
		}
	}
	switch {
	case top == "":
		return nil
	case len(set) > 1:
		return fmt.Errorf("%s: give only one of density, material and mass (got %s)", top, strings.Join(set, " and "))
	}
	var m profiles.Mass
	switch set[0] {
	case "density":
		m.Density = v.GetFloat64("density")
		if !(m.Density > 0 && m.Density < math.Inf(1)) {
			return fmt.Errorf("%s: density %v is not a positive number", top, m.Density)
		}
	case "mass":
		m.Total = v.GetFloat64("mass")
		if !(m.Total > 0 && m.Total < math.Inf(1)) {
			return fmt.Errorf("%s: mass %v is not a positive number", top, m.Total)
		}
	case "material":
		m.Material = v.GetString("material")
		if _, err := mass.Density(m.Material); err != nil {
			return fmt.Errorf("%s: %w", top, err)
		}
	}
	p.Mass = m
	return nil
}

func layerRank(level string) int {
	switch level {
	case "command line":
		return 0
	case "environment":
		return 1
	}
	return 2
}

func envName(key string) string {
	return envPrefix + "_" + strings.ToUpper(strings.ReplaceAll(key, "-", "_"))
}

// checkValue says whether raw is a valid value for the flag's type.
func checkValue(f *pflag.Flag, raw string) error {
	var err error
	switch f.Value.Type() {
	case "int":
		_, err = strconv.Atoi(raw)
		if err != nil {
			return errors.New("want a whole number")
		}
	case "float64":
		_, err = strconv.ParseFloat(raw, 64)
		if err != nil {
			return errors.New("want a number")
		}
	case "bool":
		_, err = strconv.ParseBool(raw)
		if err != nil {
			return errors.New("want true or false")
		}
	}
	return nil
}

// checkProjectFile decodes the project file strictly: only setting keys,
// each with a value of its flag's type; errors name file:line:column. It
// returns each setting's value node.
func checkProjectFile(file string, data []byte, flags *pflag.FlagSet) (map[string]*yaml.Node, error) {
	var root yaml.Node
	if err := yaml.Unmarshal(data, &root); err != nil {
		return nil, fmt.Errorf("%s: %w", file, err)
	}
	if len(root.Content) == 0 {
		return nil, nil
	}
	m := root.Content[0]
	if m.Kind != yaml.MappingNode {
		return nil, &profiles.Error{File: file, Line: m.Line, Column: m.Column, Msg: "want a mapping of settings (" + strings.Join(settingKeys, ", ") + ")"}
	}
	seen := map[string]*yaml.Node{}
	for i := 0; i+1 < len(m.Content); i += 2 {
		k, val := m.Content[i], m.Content[i+1]
		switch {
		case !slices.Contains(settingKeys, k.Value):
			return nil, &profiles.Error{File: file, Line: k.Line, Column: k.Column, Msg: fmt.Sprintf("unknown setting %s%s", profiles.Excerpt(k.Value), profiles.Suggest(k.Value, settingKeys))}
		case seen[k.Value] != nil:
			return nil, &profiles.Error{File: file, Line: k.Line, Column: k.Column, Msg: fmt.Sprintf("%s: key given twice", k.Value)}
		case val.Kind != yaml.ScalarNode || val.Tag == "!!null":
			return nil, &profiles.Error{File: file, Line: val.Line, Column: val.Column, Msg: fmt.Sprintf("%s: want a single value", k.Value)}
		}
		seen[k.Value] = val
		if err := checkValue(flags.Lookup(k.Value), val.Value); err != nil {
			return nil, &profiles.Error{File: file, Line: val.Line, Column: val.Column, Msg: fmt.Sprintf("%s: %s: %v", k.Value, profiles.Excerpt(val.Value), err)}
		}
	}
	return seen, nil
}

// jobGroup is the jobs that share settings (one project file).
type jobGroup struct {
	s    *settings
	jobs []int
}

// groupBySettings resolves each job's settings, grouping jobs by their
// project file, in the order the groups are first met.
func groupBySettings(c interface{ Flags() *pflag.FlagSet }, jobs []batch.Job) ([]jobGroup, error) {
	return groupJobs(newLayers(c.Flags()), jobs)
}

// groupJobs is groupBySettings over the layers l.
func groupJobs(l *layers, jobs []batch.Job) ([]jobGroup, error) {
	var groups []jobGroup
	at := map[*settings]int{}
	for i, j := range jobs {
		s, err := l.forInput(j.Input)
		if err != nil {
			return nil, err
		}
		g, ok := at[s]
		if !ok {
			g = len(groups)
			at[s] = g
			groups = append(groups, jobGroup{s: s})
		}
		groups[g].jobs = append(groups[g].jobs, i)
	}
	return groups, nil
}

// runGroups runs each group with its options and returns the assets in
// the jobs' order.
func runGroups(ctx context.Context, jobs []batch.Job, groups []jobGroup, bopt batch.Options) ([]batch.Asset, bool, error) {
	assets := make([]batch.Asset, len(jobs))
	interrupted := false
	var cacheErrs []error
	for _, g := range groups {
		sub := make([]batch.Job, len(g.jobs))
		for k, i := range g.jobs {
			sub[k] = jobs[i]
		}
		bopt.Generate = g.s.opt
		got, intr, err := batch.Run(ctx, sub, bopt)
		for k, i := range g.jobs {
			assets[i] = got[k]
		}
		interrupted = interrupted || intr
		if err != nil {
			cacheErrs = append(cacheErrs, err)
		}
	}
	return assets, interrupted, errors.Join(cacheErrs...)
}

// reportProfile describes the settings in the report: the first group's,
// named after every profile used (with its project file) when several.
func reportProfile(groups []jobGroup) batch.Profile {
	if len(groups) == 0 {
		return batch.Profile{}
	}
	s := groups[0].s
	o := s.opt
	rp := batch.Profile{Name: s.profile.Name, Format: string(o.Encoding.Format), KHRGeometry: s.profile.KHRGeometry, Method: string(o.Collider.Method),
		MaxHullVertices: o.Collider.MaxHullVertices, MaxColliders: o.Collider.MaxColliders, Density: o.Body.Mass.Density, Mass: o.Body.Mass.Mass}
	if len(groups) > 1 {
		var names []string
		for _, g := range groups {
			n := g.s.profile.Name
			if g.s.project != "" {
				n += " (" + g.s.project + ")"
			}
			names = append(names, n)
		}
		rp.Name = strings.Join(names, "; ")
	}
	return rp
}
