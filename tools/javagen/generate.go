package main

import (
	"context"
	"errors"
	"fmt"

	"github.com/blang/semver"
	javagen "github.com/pulumi/pulumi-java/pkg/codegen/java"
	"github.com/pulumi/pulumi/pkg/v3/codegen/schema"
)

// noLoader refuses every package reference: the txmail schema depends on no other package (its only
// external reference, pulumi.json#/Any, is built in), so a load request is a schema error.
type noLoader struct{}

var errNoDependencies = errors.New("the schema references another package; none is available offline")

func (noLoader) LoadPackage(string, *semver.Version) (*schema.Package, error) {
	return nil, errNoDependencies
}

func (noLoader) LoadPackageV2(context.Context, *schema.PackageDescriptor) (*schema.Package, error) {
	return nil, errNoDependencies
}

// generate runs pulumi-java's generator the way its language host does for `pulumi package gen-sdk`
// (cmd/pulumi-language-java GeneratePackage: deduplicate types, bind, generate), but without build
// files (language.java.buildFiles is unset, so no Gradle project), and adds the Maven build and the
// plugin.json resource.
func generate(spec schema.PackageSpec) (map[string][]byte, error) {
	deduped, diags, err := javagen.DeduplicateTypes(&spec)
	if err != nil {
		return nil, err
	}
	if diags.HasErrors() {
		return nil, diags
	}
	pkg, diags, err := schema.BindSpec(*deduped, noLoader{}, schema.ValidationOptions{})
	if err != nil {
		return nil, err
	}
	if diags.HasErrors() {
		return nil, diags
	}
	// legacyBuildFiles=true: build files only when language.java.buildFiles says "gradle"; local=false:
	// a publishable package (its version.txt carries the schema's version).
	files, err := javagen.GeneratePackage(tool, pkg, nil, nil, false, true)
	if err != nil {
		return nil, err
	}
	// GeneratePackage leaves the Java settings it used in the package: the schema's, with the
	// generator's default dependencies added.
	info, ok := pkg.Language["java"].(*javagen.PackageInfo)
	if !ok {
		return nil, fmt.Errorf("no Java settings after generation (got %T)", pkg.Language["java"])
	}
	coords, err := coordinatesOf(pkg, info)
	if err != nil {
		return nil, err
	}
	pom, err := pomFile(pkg, coords, info.Dependencies)
	if err != nil {
		return nil, err
	}
	files["pom.xml"] = pom
	plugin, err := pluginJSON(pkg)
	if err != nil {
		return nil, err
	}
	files[coords.resourceDir()+"/plugin.json"] = plugin
	if _, ok := files[coords.resourceDir()+"/version.txt"]; !ok {
		return nil, fmt.Errorf("the generator wrote no %s/version.txt", coords.resourceDir())
	}
	return files, nil
}
