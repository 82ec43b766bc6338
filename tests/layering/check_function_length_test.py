#!/usr/bin/env python3
"""Tests scripts/check-function-length.py on a small tree written to a temporary folder: what it
must count (a long function, a long in-class method, a long lambda at namespace scope, a long file)
and what it must not be fooled by (braces in strings, raw strings, characters and comments, digit
separators, preprocessor lines, member initializer lists, lambdas inside a function, initializer
tables).

    check_function_length_test.py CHECKER
"""
import os
import subprocess
import sys
import tempfile


def body(lines):
    return "".join(f"  int v{k} = {k};\n" for k in range(lines))


def write(root, rel, text):
    path = os.path.join(root, rel)
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w", encoding="utf-8") as f:
        f.write(text)


def run(checker, root, *extra):
    done = subprocess.run([sys.executable, checker, "--root", root, *extra], capture_output=True, text=True)
    return done.returncode, done.stdout


def fail(message, output):
    print(f"FAIL: {message}\n--- checker output ---\n{output}")
    sys.exit(1)


def main():
    checker = sys.argv[1]
    with tempfile.TemporaryDirectory() as root:
        # 81 lines from `{` to `}`: over. 80: not.
        write(root, "common/a/long.cpp",
              "namespace tfwsl {\nnamespace {\n"
              "int too_long() {\n" + body(79) + "}\n"
              "int just_fits() {\n" + body(78) + "}\n"
              "}  // namespace\n"
              "int Thing::method(int a) const noexcept {\n" + body(81) + "}\n"
              "}  // namespace tfwsl\n")
        # Braces hidden in literals and comments would unbalance a naive count.
        tricky = ('int tricky() {\n'
                  '  const char* s = "}}}";  // }\n'
                  '  const char c = \'}\';\n'
                  '  auto r = R"x(}} ")" })x";\n'
                  '  /* } */ int n = 1\'000; char q = \'}\';\n'
                  '  auto f = [&](int x) {\n' + body(10) + '    return x; };\n'
                  '  return n;\n' + body(70) + '}\n')
        write(root, "linux/b/tricky.cpp", tricky +
              "Foo::Foo(int a) : m_a{a}, m_b(a) {\n" + body(90) + "}\n")
        write(root, "win/c/in_class.hpp",
              "#pragma once\n#define BRACE {\n"
              "class Widget : public Base {\n public:\n"
              "  int m_x{0};\n"
              "  void draw() override {\n" + body(85) + "  }\n"
              "};\n"
              "const int k_table[] = {\n" + "".join(f"  {k},\n" for k in range(100)) + "};\n"
              "const auto k_run = [](int x) {\n" + body(82) + "  return x;\n};\n")
        write(root, "common/d/big.cpp", "int x;\n" * 501)

        rc, out = run(checker, root)
        expected = [
            "common/a/long.cpp:3: too_long 81 lines",
            "common/a/long.cpp:165: Thing::method 83 lines",
            "linux/b/tricky.cpp:1: tricky 89 lines",
            "linux/b/tricky.cpp:90: Foo::Foo 92 lines",
            "win/c/in_class.hpp:6: Widget::draw 87 lines",
            "win/c/in_class.hpp:196: k_run 85 lines",
            "common/d/big.cpp:1: (file) 501 lines",
        ]
        if rc != 1:
            fail(f"exit code {rc}, expected 1", out)
        for line in expected:
            if line not in out:
                fail(f"missing `{line}`", out)
        for name in ("just_fits", "k_table", "<lambda>"):
            if f" {name} " in out:
                fail(f"`{name}` reported", out)

        allow = os.path.join(root, "allow.txt")
        with open(allow, "w", encoding="utf-8") as f:
            f.write("# test\ncommon/a/long.cpp too_long\ncommon/a/long.cpp Thing::method\n"
                    "linux/b/tricky.cpp Foo::Foo\nlinux/b/tricky.cpp tricky\nwin/c/in_class.hpp Widget::draw\n"
                    "win/c/in_class.hpp k_run\ncommon/d/big.cpp (file)\n")
        rc, out = run(checker, root, "--allow", allow)
        if rc != 0:
            fail(f"everything allowed, exit code {rc}", out)

        with open(allow, "a", encoding="utf-8") as f:
            f.write("common/a/long.cpp just_fits\n")
        rc, out = run(checker, root, "--allow", allow)
        if rc != 1 or "just_fits is no longer over the limit" not in out:
            fail("a stale allow-list entry must fail", out)
    print("ok")


if __name__ == "__main__":
    main()
