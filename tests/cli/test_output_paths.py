"""Where `-o` points (issue 8): regular files are replaced atomically, links are followed and
kept, devices and FIFOs are written in place, the input is never overwritten, other kinds of file
are refused. Every path is made in a temporary directory, device nodes included: a regression
here must never reach the machine's own /dev (the tests run as root)."""

import os
import pathlib
import socket
import stat
import subprocess
import threading

import pytest

PROJECT_ROOT = pathlib.Path(__file__).resolve().parents[2]
SAMPLE = PROJECT_ROOT / "samples" / "add.py"


def helionc_binary() -> pathlib.Path:
    explicit = os.environ.get("HELIONC")
    return pathlib.Path(explicit) if explicit else PROJECT_ROOT / "build" / "src" / "driver" / "helionc"


def run(*args, **kwargs) -> subprocess.CompletedProcess:
    return subprocess.run([str(helionc_binary()), *map(str, args)], capture_output=True, text=True,
                          timeout=60, **kwargs)


@pytest.fixture
def kernel(tmp_path) -> pathlib.Path:
    path = tmp_path / "add.py"
    path.write_text(SAMPLE.read_text())
    return path


@pytest.fixture
def module_text(kernel) -> str:
    """The module for `kernel`, as written to standard output (its header names the path)."""
    proc = run(kernel, "-o", "-")
    assert proc.returncode == 0, proc.stderr
    return proc.stdout


def test_regular_file_is_replaced(tmp_path, kernel, module_text):
    out = tmp_path / "out_pallas.py"
    out.write_text("old")
    out.chmod(0o640)
    proc = run(kernel, "-o", out)
    assert proc.returncode == 0, proc.stderr
    assert out.read_text() == module_text
    assert stat.S_IMODE(out.stat().st_mode) == 0o640
    assert sorted(p.name for p in tmp_path.iterdir()) == ["add.py", "out_pallas.py"]


def test_symlink_is_followed_and_kept(tmp_path, kernel, module_text):
    (tmp_path / "gen").mkdir()
    link = tmp_path / "out_pallas.py"
    link.symlink_to("gen/real_pallas.py")  # dangling: the write creates its target
    proc = run(kernel, "-o", link)
    assert proc.returncode == 0, proc.stderr
    assert link.is_symlink()
    assert (tmp_path / "gen" / "real_pallas.py").read_text() == module_text
    assert [p.name for p in (tmp_path / "gen").iterdir()] == ["real_pallas.py"]


def test_fifo_is_written_through(tmp_path, kernel, module_text):
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    received = []
    reader = threading.Thread(target=lambda: received.append(fifo.read_text()))
    reader.start()
    proc = run(kernel, "-o", fifo)
    reader.join(timeout=60)
    assert proc.returncode == 0, proc.stderr
    assert received == [module_text]
    assert stat.S_ISFIFO(fifo.lstat().st_mode)


def test_character_device_is_written_through(tmp_path, kernel):
    null = tmp_path / "null"
    try:
        os.mknod(null, 0o666 | stat.S_IFCHR, os.makedev(1, 3))
    except PermissionError:
        pytest.skip("making device nodes needs CAP_MKNOD (CI runs as root)")
    link = tmp_path / "to_null"
    link.symlink_to(null)
    for target in (null, link):
        proc = run(kernel, "-o", target, "--dump-after", "plan-launches")
        assert proc.returncode == 0, proc.stderr
        assert stat.S_ISCHR(null.lstat().st_mode)
        assert null.lstat().st_rdev == os.makedev(1, 3)
    assert link.is_symlink()


def test_stdout_link_writes_the_open_descriptor(tmp_path, kernel, module_text):
    # Our own /dev/stdout: a link to /proc/self/fd/1, with standard output redirected to a file
    # that also holds text written before the compiler ran.
    stdout_link = tmp_path / "stdout"
    stdout_link.symlink_to("/proc/self/fd/1")
    captured = tmp_path / "captured.txt"
    with captured.open("w") as sink:
        sink.write("header\n")
        sink.flush()
        proc = subprocess.run([str(helionc_binary()), str(kernel), "-o", str(stdout_link)],
                              stdout=sink, stderr=subprocess.PIPE, text=True, timeout=60)
    assert proc.returncode == 0, proc.stderr
    assert stdout_link.is_symlink()
    # Written in place through the descriptor (truncating it, as a shell's `>` would).
    assert captured.read_text() == module_text


@pytest.mark.parametrize("spelling", ["same", "dot", "symlink", "hardlink"])
def test_output_that_is_the_input_is_refused(tmp_path, kernel, spelling):
    source = kernel.read_text()
    output = {
        "same": kernel,
        "dot": tmp_path / "." / "add.py",
        "symlink": tmp_path / "link.py",
        "hardlink": tmp_path / "hard.py",
    }[spelling]
    if spelling == "symlink":
        output.symlink_to(kernel)
    if spelling == "hardlink":
        os.link(kernel, output)
    proc = run(kernel, "-o", output)
    assert proc.returncode == 1
    assert f"error: the output `{output}` is the input file `{kernel}`; nothing was written" in proc.stderr
    assert kernel.read_text() == source


def test_output_that_is_a_config_is_refused(tmp_path, kernel):
    config = tmp_path / "add.yaml"
    config.write_text("kernel: add\ndefault: {block_sizes: [128]}\n")
    before = config.read_text()
    proc = run(kernel, "--config", config, "-o", config)
    assert proc.returncode == 1
    assert "is the input file" in proc.stderr
    assert config.read_text() == before


def test_directory_is_refused(tmp_path, kernel):
    out = tmp_path / "dir"
    out.mkdir()
    proc = run(kernel, "-o", out)
    assert proc.returncode == 1
    assert f"error: cannot write `{out}`: it is a directory" in proc.stderr
    assert list(out.iterdir()) == []


def test_socket_is_refused(tmp_path, kernel):
    path = tmp_path / "sock"
    server = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    try:
        server.bind(str(path))
        proc = run(kernel, "-o", path)
    finally:
        server.close()
    assert proc.returncode == 1
    assert "neither a regular file, a character device nor a FIFO" in proc.stderr
    assert stat.S_ISSOCK(path.lstat().st_mode)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["add.py", "sock"]


def test_default_outputs_are_named_after_the_input(tmp_path, kernel):
    """Without -o the module goes to STEM_pallas.py and `--emit reference` to STEM_reference.py,
    both in the current directory; `--emit ir` goes to standard output."""
    work = tmp_path / "work"
    work.mkdir()
    assert run(kernel, cwd=work).returncode == 0
    proc = run(kernel, "--emit", "reference", cwd=work)
    assert proc.returncode == 0, proc.stderr
    assert sorted(p.name for p in work.iterdir()) == ["add_pallas.py", "add_reference.py"]
    reference = (work / "add_reference.py").read_text()
    assert "def reference_add(x, y):" in reference and "pallas_call" not in reference
    assert "def reference_add(x, y):" in (work / "add_pallas.py").read_text()
    proc = run(kernel, "--emit", "ir", cwd=work)
    assert proc.returncode == 0 and "kernel add" in proc.stdout
    assert len(list(work.iterdir())) == 2
