// reference_writer prints the diagnostics of parsing each named file with
// the reference hcl (hclsyntax.ParseConfig, or ParseTemplate for .tpl,
// .tftpl and .tmpl files), rendered by hcl's own text diagnostic writer
// (no word wrapping, no colour). Used by ../regen.sh to make the expected
// outputs of the diagnostic text tests.
package main

import (
	"fmt"
	"os"
	"strings"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
)

func isTemplate(name string) bool {
	for _, ext := range []string{".tpl", ".tftpl", ".tmpl"} {
		if strings.HasSuffix(name, ext) {
			return true
		}
	}
	return false
}

func main() {
	files := map[string]*hcl.File{}
	for _, name := range os.Args[1:] {
		src, err := os.ReadFile(name)
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(2)
		}
		var diags hcl.Diagnostics
		if isTemplate(name) {
			_, diags = hclsyntax.ParseTemplate(src, name, hcl.InitialPos)
			files[name] = &hcl.File{Bytes: src}
		} else {
			files[name], diags = hclsyntax.ParseConfig(src, name, hcl.InitialPos)
		}
		w := hcl.NewDiagnosticTextWriter(os.Stdout, files, 0, false)
		if err := w.WriteDiagnostics(diags); err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(2)
		}
	}
}
