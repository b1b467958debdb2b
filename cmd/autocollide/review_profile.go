package main

import (
	"bytes"
	"fmt"
	"strconv"

	"github.com/autocollide/autocollide/profiles"
	"go.yaml.in/yaml/v3"
)

// ruleName names the rule review keeps for the asset at rel.
func ruleName(rel string) string { return "review: " + rel }

// withRule returns the profile document text with the rule for the asset
// at rel (its path under the reviewed folder) set to ch: first among the
// rules (a document's rules are tried first, in order), replacing an
// earlier rule of the same name. The document is edited as YAML nodes, so
// its comments and the order of its keys are kept; the result is checked
// as the profile file it becomes.
func withRule(text []byte, file, rel string, ch reviewChange) ([]byte, error) {
	if _, ok := profilesMethod(ch.Method); !ok {
		return nil, fmt.Errorf("method %q: want one of the methods of 'autocollide generate --help'", ch.Method)
	}
	if ch.Density != 0 && ch.Material != "" {
		return nil, fmt.Errorf("give a density or a material, not both (density %v, material %q)", ch.Density, ch.Material)
	}
	var doc yaml.Node
	if err := yaml.Unmarshal(text, &doc); err != nil {
		return nil, fmt.Errorf("%s: %w", file, err)
	}
	if doc.Kind == 0 {
		doc = yaml.Node{Kind: yaml.DocumentNode, Content: []*yaml.Node{{Kind: yaml.MappingNode, Tag: "!!map"}}}
	}
	root := doc.Content[0]
	if root.Kind != yaml.MappingNode {
		return nil, fmt.Errorf("%s: the profile is not a mapping", file)
	}
	var rules *yaml.Node
	for k := 0; k+1 < len(root.Content); k += 2 {
		if root.Content[k].Value == "rules" {
			rules = root.Content[k+1]
		}
	}
	if rules == nil {
		rules = &yaml.Node{Kind: yaml.SequenceNode, Tag: "!!seq"}
		root.Content = append(root.Content, str("rules"), rules)
	}
	if rules.Kind != yaml.SequenceNode {
		return nil, fmt.Errorf("%s: rules is not a list", file)
	}
	name := ruleName(rel)
	kept := []*yaml.Node{ruleNode(name, rel, ch)}
	for _, r := range rules.Content {
		if !isRuleNamed(r, name) {
			kept = append(kept, r)
		}
	}
	rules.Content = kept
	var b bytes.Buffer
	enc := yaml.NewEncoder(&b)
	enc.SetIndent(2)
	if err := enc.Encode(&doc); err != nil {
		return nil, err
	}
	if err := enc.Close(); err != nil {
		return nil, err
	}
	if _, err := profiles.Parse(file, b.Bytes()); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}

func profilesMethod(m string) (string, bool) {
	for _, k := range profiles.Methods() {
		if k == m {
			return k, true
		}
	}
	return "", false
}

func isRuleNamed(r *yaml.Node, name string) bool {
	if r.Kind != yaml.MappingNode {
		return false
	}
	for k := 0; k+1 < len(r.Content); k += 2 {
		if r.Content[k].Value == "name" && r.Content[k+1].Value == name {
			return true
		}
	}
	return false
}

func str(s string) *yaml.Node { return &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: s} }

func ruleNode(name, rel string, ch reviewChange) *yaml.Node {
	match := &yaml.Node{Kind: yaml.MappingNode, Tag: "!!map", Style: yaml.FlowStyle, Content: []*yaml.Node{str("file"), str(rel)}}
	n := &yaml.Node{Kind: yaml.MappingNode, Tag: "!!map", Content: []*yaml.Node{str("name"), str(name), str("match"), match, str("method"), str(ch.Method)}}
	num := func(key, v, tag string) {
		n.Content = append(n.Content, str(key), &yaml.Node{Kind: yaml.ScalarNode, Tag: tag, Value: v})
	}
	if ch.MaxColliders > 0 {
		num("maxColliders", strconv.Itoa(ch.MaxColliders), "!!int")
	}
	if ch.MaxHullVertices > 0 {
		num("maxHullVertices", strconv.Itoa(ch.MaxHullVertices), "!!int")
	}
	if ch.Concavity > 0 {
		num("concavity", strconv.FormatFloat(ch.Concavity, 'g', -1, 64), "!!float")
	}
	if ch.Motion != "" {
		n.Content = append(n.Content, str("motion"), str(ch.Motion))
	}
	// A density of 0 or below is kept, so that the profile's check
	// refuses it with its range rather than dropping it silently.
	if ch.Density != 0 || ch.Material != "" {
		m := &yaml.Node{Kind: yaml.MappingNode, Tag: "!!map", Style: yaml.FlowStyle}
		if ch.Material != "" {
			m.Content = []*yaml.Node{str("material"), str(ch.Material)}
		} else {
			d := strconv.FormatFloat(ch.Density, 'g', -1, 64)
			tag := "!!float"
			if _, err := strconv.Atoi(d); err == nil {
				tag = "!!int" // 500, not !!float 500
			}
			m.Content = []*yaml.Node{str("density"), {Kind: yaml.ScalarNode, Tag: tag, Value: d}}
		}
		n.Content = append(n.Content, str("mass"), m)
	}
	n.HeadComment = "kept by autocollide review"
	return n
}
