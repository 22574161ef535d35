package static

import (
	"io/fs"
	"os"
	"strings"
	"testing"
)

// Rule: every file in this directory but the package's own Go files is in
// FS, byte for byte, and FS holds nothing else: an asset of a kind the
// embed patterns miss would otherwise be left out of the site silently.
func TestEveryAssetIsEmbedded(t *testing.T) {
	des, err := os.ReadDir(".")
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]bool{}
	for _, de := range des {
		if de.IsDir() || strings.HasSuffix(de.Name(), ".go") {
			continue
		}
		want[de.Name()] = true
		disk, err := os.ReadFile(de.Name())
		if err != nil {
			t.Fatal(err)
		}
		got, err := FS.ReadFile(de.Name())
		if err != nil {
			t.Errorf("%s is not embedded: add its kind to static.go's go:embed patterns", de.Name())
			continue
		}
		if string(got) != string(disk) {
			t.Errorf("%s: the embedded copy differs from the file", de.Name())
		}
	}
	for _, name := range []string{"app.css", "app.js", "favicon.svg", "sqlite3.wasm"} { // one of each kind
		if !want[name] {
			t.Errorf("no %s in the directory: the test read the wrong one", name)
		}
	}
	err = fs.WalkDir(FS, ".", func(p string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() && !want[p] {
			t.Errorf("FS holds %s, which is not an asset file of this directory", p)
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
}
