package strbody

import (
	"bufio"
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// A legacy-SSE instruction (MOVQ, MOVOU, PXOR... on an X register) run
// while the upper halves of the vector registers are dirty, as they are
// after any AVX instruction on a Y or Z register until VZEROUPPER, costs
// Intel cores about a thousand cycles (a state save and restore, or a
// blend per instruction, by generation); AMD cores hardly notice, so a
// benchmark on one vendor cannot catch it. The rule: inside a function
// that uses Y or Z registers, every instruction on an X register is
// VEX-encoded. These tests hold every .s file of the module to it, in the
// source and in the machine code the test binary holds.

var (
	xReg  = regexp.MustCompile(`\bX([0-9]|[12][0-9]|3[01])\b`)
	yzReg = regexp.MustCompile(`\b[YZ]([0-9]|[12][0-9]|3[01])\b`)
)

// legacySSESource returns the instructions of the Go assembly src that
// break the rule, each as "name: line N: text". A #define's body is read
// as part of the function it is written in or after; DATA, GLOBL and
// directives are not instructions.
func legacySSESource(src string) []string {
	type insn struct {
		line int
		text string
	}
	var bad []string
	var name string
	var body []insn
	var wide bool
	flush := func() {
		if wide {
			for _, in := range body {
				op, _, _ := strings.Cut(in.text, " ")
				if xReg.MatchString(in.text) && !strings.HasPrefix(op, "V") && !strings.HasPrefix(op, "K") {
					bad = append(bad, name+": line "+strconv.Itoa(in.line)+": "+in.text)
				}
			}
		}
		body, wide = body[:0], false
	}
	inComment := false
	for i, line := range strings.Split(src, "\n") {
		if inComment {
			end := strings.Index(line, "*/")
			if end < 0 {
				continue
			}
			line, inComment = line[end+2:], false
		}
		if k := strings.Index(line, "/*"); k >= 0 {
			if end := strings.Index(line[k:], "*/"); end >= 0 {
				line = line[:k] + line[k+end+2:]
			} else {
				line, inComment = line[:k], true
			}
		}
		line, _, _ = strings.Cut(line, "//")
		line = strings.TrimSuffix(strings.TrimSpace(line), `\`)
		for _, stmt := range strings.Split(line, ";") {
			stmt = strings.Join(strings.Fields(stmt), " ")
			if stmt == "" || strings.HasSuffix(stmt, ":") || strings.HasPrefix(stmt, "#") {
				if strings.HasPrefix(stmt, "#define ") {
					// the macro's first line may hold an instruction
					f := strings.SplitN(stmt, " ", 3)
					if len(f) == 3 {
						stmt = f[2]
					} else {
						continue
					}
				} else {
					continue
				}
			}
			if strings.HasPrefix(stmt, "TEXT ") {
				flush()
				name = strings.TrimSuffix(strings.Fields(stmt)[1], ",")
				continue
			}
			op, _, _ := strings.Cut(stmt, " ")
			if op == "DATA" || op == "GLOBL" || op == "PCDATA" || op == "FUNCDATA" || op == "NO_LOCAL_POINTERS" {
				continue
			}
			if yzReg.MatchString(stmt) {
				wide = true
			}
			body = append(body, insn{i + 1, stmt})
		}
	}
	flush()
	return bad
}

// moduleRoot is the directory of the go.mod above this package.
func moduleRoot(t *testing.T) string {
	dir, err := filepath.Abs(".")
	if err != nil {
		t.Fatal(err)
	}
	for {
		if mod, err := os.ReadFile(filepath.Join(dir, "go.mod")); err == nil {
			if bytes.HasPrefix(mod, []byte("module github.com/jsonpipe/json\n")) {
				return dir
			}
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			t.Fatal("no go.mod of github.com/jsonpipe/json above the package")
		}
		dir = parent
	}
}

// TestAsmVEXOnly reads every .s file under the module's root.
func TestAsmVEXOnly(t *testing.T) {
	root := moduleRoot(t)
	var files int
	err := filepath.WalkDir(root, func(path string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && (d.Name() == ".git" || d.Name() == "testdata") {
			return filepath.SkipDir
		}
		if d.IsDir() || !strings.HasSuffix(path, ".s") {
			return nil
		}
		src, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		files++
		rel, _ := filepath.Rel(root, path)
		for _, b := range legacySSESource(string(src)) {
			t.Errorf("%s: legacy-SSE instruction in a function that uses Y/Z registers: %s", rel, b)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if files == 0 {
		t.Fatalf("no .s file found under %s: the check would check nothing", root)
	}
	t.Logf("%d .s files checked", files)
}

// TestLegacySSESourceCatches is the check on the kernel as it was before
// its constants were loaded with VMOVQ, and on a few other forms.
func TestLegacySSESourceCatches(t *testing.T) {
	for _, tc := range []struct {
		name, src string
		bad       int
	}{
		{"the old stopAVX2", "TEXT ·stopAVX2(SB), NOSPLIT, $0-48\n\tMOVQ $0x22, BX\n\tMOVQ BX, X1\n\tVPBROADCASTQ X1, Y1\n\tMOVQ BX, X2 // again\n\tVZEROUPPER\n\tRET\n", 2},
		{"fixed", "TEXT ·f(SB), NOSPLIT, $0\n\tVMOVQ BX, X1\n\tVPBROADCASTQ X1, Y1\n\tVZEROUPPER\n\tRET\n", 0},
		{"SSE only, no Y register", "TEXT ·g(SB), NOSPLIT, $0\n\tMOVOU (SI), X0\n\tPXOR X1, X1\n\tRET\n", 0},
		{"second function", "TEXT ·g(SB), NOSPLIT, $0\n\tPXOR X1, X1\n\tRET\nTEXT ·h(SB), NOSPLIT, $0\n\tVMOVDQU (SI), Y0\n\tPXOR X1, X1; MOVOU X1, (DI)\n\tRET\n", 2},
		{"in a macro", "TEXT ·m(SB), NOSPLIT, $0\n\tVMOVDQU (SI), Y0\n#define LOAD \\\n\tMOVD AX, X1\n\tRET\n", 1},
		{"commented out", "TEXT ·c(SB), NOSPLIT, $0\n\tVMOVDQU (SI), Y0\n\t// MOVQ BX, X1\n\t/* PXOR X0, X0 */\n\tRET\n", 0},
	} {
		if got := legacySSESource(tc.src); len(got) != tc.bad {
			t.Errorf("%s: %d found, want %d: %q", tc.name, len(got), tc.bad, got)
		}
	}
}

// legacySSEObject returns the instructions of GNU objdump's disassembly
// (AT&T syntax) that break the rule, in the functions that use %ymm or
// %zmm registers.
func legacySSEObject(disasm string) (bad []string, funcs int) {
	var name string
	var body []string
	flush := func() {
		wide := false
		for _, in := range body {
			if strings.Contains(in, "%ymm") || strings.Contains(in, "%zmm") {
				wide = true
			}
		}
		if wide {
			for _, in := range body {
				op, _, _ := strings.Cut(strings.TrimSpace(in), " ")
				if strings.Contains(in, "%xmm") && !strings.HasPrefix(op, "v") && !strings.HasPrefix(op, "k") {
					bad = append(bad, name+": "+strings.Join(strings.Fields(in), " "))
				}
			}
		}
		body = body[:0]
	}
	sc := bufio.NewScanner(strings.NewReader(disasm))
	for sc.Scan() {
		line := sc.Text()
		if strings.HasSuffix(line, ">:") {
			flush()
			name = line[strings.Index(line, "<")+1 : len(line)-2]
			funcs++
			continue
		}
		// "  5ad459:\tmovq   %rbx,%xmm1"
		if _, insn, ok := strings.Cut(line, ":\t"); ok {
			body = append(body, insn)
		}
	}
	flush()
	return bad, funcs
}

// TestAsmVEXOnlyObject disassembles the kernels with GNU objdump (binutils,
// beside gcc), which decodes VEX, unlike go tool objdump, and checks what
// the assembler made of the source. The binaries are the packages' test
// binaries built again with their symbols (go test strips the one it runs).
func TestAsmVEXOnlyObject(t *testing.T) {
	if !asmKernels {
		t.Skip("no assembly kernel in this build (purego tag, or not amd64)")
	}
	objdump, err := exec.LookPath("objdump")
	if err != nil {
		t.Skip("GNU objdump (binutils) not found: the source check still runs")
	}
	gocmd, err := exec.LookPath("go")
	if err != nil {
		t.Skip("no go command on PATH to build the binary with symbols: the source check still runs")
	}
	// Each package with a kernel, built as a test binary with symbols.
	kernels := []struct {
		dir, pkg string
		funcs    []string
	}{
		{".", "strbody", []string{"stopAVX2", "escapeCopyAVX2", "copyPlainAVX2", "validUTF8AVX2"}},
	}
	for _, k := range kernels {
		bin := filepath.Join(t.TempDir(), k.pkg+".test")
		if out, err := exec.Command(gocmd, "test", "-c", "-o", bin, k.dir).CombinedOutput(); err != nil {
			t.Fatalf("go test -c %s: %v\n%s", k.dir, err, out)
		}
		for _, fn := range k.funcs {
			// (objdump keeps only the last of several --disassemble=)
			sym := "github.com/jsonpipe/json/internal/" + k.pkg + "." + fn + ".abi0"
			out, err := exec.Command(objdump, "-d", "--no-show-raw-insn", "--disassemble="+sym, bin).Output()
			if err != nil {
				t.Fatalf("objdump: %v", err)
			}
			bad, funcs := legacySSEObject(string(out))
			if funcs != 1 {
				t.Fatalf("objdump did not find %s in %s:\n%s", sym, bin, out)
			}
			for _, b := range bad {
				t.Errorf("legacy-SSE instruction in a function that uses Y/Z registers: %s", b)
			}
			if !bytes.Contains(out, []byte("vzeroupper")) {
				t.Errorf("%s: no vzeroupper:\n%s", fn, out)
			}
		}
	}
}

// TestLegacySSEObjectCatches is the object check on objdump's text of the
// kernel as it was before the fix.
func TestLegacySSEObjectCatches(t *testing.T) {
	const old = `
00000000005ad440 <github.com/jsonpipe/json/internal/strbody.stopAVX2.abi0>:
  5ad44f:	movabs $0x2222222222222222,%rbx
  5ad459:	movq   %rbx,%xmm1
  5ad45e:	vpbroadcastq %xmm1,%ymm1
  5ad46d:	movq   %rbx,%xmm2
  5ad472:	vpbroadcastq %xmm2,%ymm2
  5ad48b:	vpxor  %ymm6,%ymm6,%ymm6
`
	if bad, funcs := legacySSEObject(old); len(bad) != 2 || funcs != 1 {
		t.Errorf("old kernel: %d functions, bad %q; want 1 function, 2 bad", funcs, bad)
	}
	fixed := strings.ReplaceAll(old, "movq   %rbx", "vmovq  %rbx")
	if bad, _ := legacySSEObject(fixed); len(bad) != 0 {
		t.Errorf("fixed kernel: bad %q", bad)
	}
}
