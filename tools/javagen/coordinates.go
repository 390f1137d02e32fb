package main

import (
	"encoding/json"
	"fmt"
	"net/url"
	"strings"

	javagen "github.com/pulumi/pulumi-java/pkg/codegen/java"
	"github.com/pulumi/pulumi/pkg/v3/codegen/schema"
)

// coordinates say where the SDK lives in a Maven repository and in Java's package space.
//
// Chosen as Pulumi's own providers choose them, for a publisher that is a GitHub organization: the
// artifactId is the package name; the groupId is the Maven Central namespace such an organization is
// given, io.github.<org>; the Java base package is com.<org> made a legal Java identifier (JLS 6.1: a
// hyphen becomes an underscore), so the classes are com.<org>.<package name>.* as Pulumi's are
// com.pulumi.<name>.*. Not io.github.<org>: the Java SDK reads a package's plugin.json only under
// com/<namespace>/<name>/ (com.pulumi.bootstrap.internal.PulumiPlugins), which is how the engine
// learns before the run which plugin a program needs.
type coordinates struct {
	groupID, artifactID, version string
	javaPackage                  string // e.g. com.pulumi_txmail.txmail
}

// resourceDir is where the SDK's resources (version.txt, plugin.json) live: the Java package's path.
func (c coordinates) resourceDir() string {
	return "src/main/resources/" + strings.ReplaceAll(c.javaPackage, ".", "/")
}

func coordinatesOf(pkg *schema.Package, info *javagen.PackageInfo) (coordinates, error) {
	u, err := url.Parse(pkg.Repository)
	var parts []string
	if err == nil {
		parts = strings.Split(strings.Trim(u.Path, "/"), "/")
	}
	if err != nil || u.Host != "github.com" || len(parts) != 2 {
		return coordinates{}, fmt.Errorf("repository %q is not https://github.com/<org>/<repo>", pkg.Repository)
	}
	org := strings.ToLower(parts[0])
	want := "com." + strings.ReplaceAll(org, "-", "_")
	if strings.TrimSuffix(info.BasePackage, ".") != want {
		return coordinates{}, fmt.Errorf("language.java.basePackage is %q; the repository's organization gives %q",
			info.BasePackage, want)
	}
	if pkg.Version == nil {
		return coordinates{}, fmt.Errorf("the schema has no version")
	}
	return coordinates{
		groupID:     "io.github." + org,
		artifactID:  pkg.Name,
		version:     pkg.Version.String(),
		javaPackage: info.BasePackageOrDefault() + pkg.Name,
	}, nil
}

// pluginJSON is the resource the Java SDK finds on a program's class path to tell the engine which
// resource plugin (name, version, download server) the program needs, so the engine acquires it by
// name. The same fields pulumi-java's Gradle build writes.
func pluginJSON(pkg *schema.Package) ([]byte, error) {
	text, err := json.MarshalIndent(struct {
		Resource bool   `json:"resource"`
		Name     string `json:"name"`
		Version  string `json:"version"`
		Server   string `json:"server,omitempty"`
	}{true, pkg.Name, pkg.Version.String(), pkg.PluginDownloadURL}, "", "  ")
	if err != nil {
		return nil, err
	}
	return append(text, '\n'), nil
}
