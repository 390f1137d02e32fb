package main

import (
	"context"
	"fmt"

	"github.com/blang/semver"
	"github.com/pulumi/pulumi/pkg/v3/codegen/schema"
)

// offlineLoader serves the one package the examples use, txmail, from its schema file: no plugin, no
// network. It binds the schema once, on first use; give each generator its own loader, since a
// generator imports its language's block into the bound package it is handed.
type offlineLoader struct {
	spec schema.PackageSpec
	raw  []byte
	pkg  *schema.Package
}

var _ schema.RawLoader = (*offlineLoader)(nil)

func newOfflineLoader(spec schema.PackageSpec, raw []byte) *offlineLoader {
	return &offlineLoader{spec: spec, raw: raw}
}

func (l *offlineLoader) check(name string) error {
	if name != l.spec.Name {
		return fmt.Errorf("examplegen: an example refers to package %q; only %q is available offline", name, l.spec.Name)
	}
	return nil
}

func (l *offlineLoader) LoadPackage(name string, _ *semver.Version) (*schema.Package, error) {
	if err := l.check(name); err != nil {
		return nil, err
	}
	if l.pkg == nil {
		pkg, diags, err := schema.BindSpec(l.spec, l, schema.ValidationOptions{})
		if err != nil {
			return nil, err
		}
		if diags.HasErrors() {
			return nil, diags
		}
		l.pkg = pkg
	}
	return l.pkg, nil
}

func (l *offlineLoader) LoadPackageV2(_ context.Context, d *schema.PackageDescriptor) (*schema.Package, error) {
	return l.LoadPackage(d.Name, d.Version)
}

func (l *offlineLoader) LoadPackageReference(name string, v *semver.Version) (schema.PackageReference, error) {
	pkg, err := l.LoadPackage(name, v)
	if err != nil {
		return nil, err
	}
	return pkg.Reference(), nil
}

func (l *offlineLoader) LoadPackageReferenceV2(
	ctx context.Context, d *schema.PackageDescriptor,
) (schema.PackageReference, error) {
	return l.LoadPackageReference(d.Name, d.Version)
}

// LoadRawSchemaBytes hands the schema file's bytes to a language host as they are: the host binds
// them itself (with its own language block), exactly as it would a plugin's schema.
func (l *offlineLoader) LoadRawSchemaBytes(_ context.Context, d *schema.PackageDescriptor) ([]byte, bool, error) {
	if err := l.check(d.Name); err != nil {
		return nil, false, err
	}
	return l.raw, true, nil
}
