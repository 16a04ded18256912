#!/usr/bin/python3
"""make_seeds.py — writes the fuzz targets' seed corpora (tests/fuzz/corpus).

Run with Debian's python3 (python3-grpc-tools, python3-protobuf) after the
wire protocol changes:  /usr/bin/python3 tests/fuzz/make_seeds.py

fuzz_validate: for every field of the Op oneof (so every family), a
SubmitRequest whose op sets every scalar of that message to a small valid
looking value, every BufferRef to buffer 1..4 of the fuzz session, every
enum to its first non-zero value and every repeated field to two entries.
These are not valid requests; they give the fuzzer the shape of each
family's message to mutate from. A few valid trntensor permutations that
convert between R_64F and R_32F (tensor_convert_*.bin) let it reach the
element-wise kernel, which fuzz_validate runs on what validates.
fuzz_ring / fuzz_tokens: a few hand-made inputs. fuzz_config and fuzz_npy keep
committed hand-made seeds (a full config file, .npy files numpy wrote).

The files named by a SHA-1 beside these are inputs that long `make fuzz`
runs found to reach new code, minimised with libFuzzer's -merge=1: they let
the short runs in `make test` start from that coverage.
"""
import os
import struct
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
CORPUS = os.path.join(HERE, "corpus")


def load_pb2():
    out = tempfile.mkdtemp()
    proto_dir = os.path.join(ROOT, "proto")
    subprocess.check_call([sys.executable, "-m", "grpc_tools.protoc", "-I" + proto_dir,
                           "--python_out=" + out, "trnsci/v1/trnsci.proto"])
    sys.path.insert(0, out)
    from trnsci.v1 import trnsci_pb2  # noqa: E402
    return trnsci_pb2


def fill(msg, depth, counter):
    from google.protobuf.descriptor import FieldDescriptor as F
    if msg.DESCRIPTOR.name == "BufferRef":
        counter[0] += 1
        msg.buffer_id = 1 + counter[0] % 4
        msg.offset = 0
        return
    if depth > 4:
        return
    seen_oneofs = set()
    for f in msg.DESCRIPTOR.fields:
        if f.containing_oneof is not None:
            if f.containing_oneof.name in seen_oneofs:
                continue
            seen_oneofs.add(f.containing_oneof.name)
        reps = 2 if f.label == F.LABEL_REPEATED else 1
        for _ in range(reps):
            if f.type == F.TYPE_MESSAGE:
                sub = getattr(msg, f.name).add() if reps == 2 else getattr(msg, f.name)
                fill(sub, depth + 1, counter)
                if reps == 1:
                    sub.SetInParent()
                continue
            if f.type == F.TYPE_ENUM:
                vals = [v.number for v in f.enum_type.values if v.number != 0]
                v = vals[0] if vals else 0
            elif f.type == F.TYPE_BOOL:
                v = False
            elif f.type in (F.TYPE_FLOAT, F.TYPE_DOUBLE):
                v = 1.0
            elif f.type in (F.TYPE_STRING,):
                v = "x"
            elif f.type == F.TYPE_BYTES:
                v = b"\x00" * 8
            else:
                v = 4
            if reps == 2:
                getattr(msg, f.name).append(v)
            else:
                setattr(msg, f.name, v)


def main():
    pb = load_pb2()
    vdir = os.path.join(CORPUS, "fuzz_validate")
    os.makedirs(vdir, exist_ok=True)
    for f in pb.Op.DESCRIPTOR.oneofs_by_name["kind"].fields:
        req = pb.SubmitRequest(session_id=1, stream_id=0)
        sub = getattr(req.op, f.name)
        fill(sub, 0, [0])
        sub.SetInParent()
        with open(os.path.join(vdir, f.name + ".bin"), "wb") as out:
            out.write(req.SerializeToString())

    # Valid converting permutations over the fuzz session's buffers (ids 1-4:
    # 1, 24, 4099 and 65536 bytes): B[b,a] = alpha A[a,b], A 3 x 4.
    def desc(dtype, extent, stride, mode):
        return pb.TensorDescriptor(type=dtype, extent=extent, stride=stride, mode=mode)
    convert = {
        "64to32": (pb.R_64F, pb.R_32F, pb.COMPUTE_64F, 1.0),
        "32to64": (pb.R_32F, pb.R_64F, pb.COMPUTE_32F, 0.5),
        "64to32_c32": (pb.R_64F, pb.R_32F, pb.COMPUTE_32F, -2.0),
    }
    for name, (ta, tb, compute, alpha) in convert.items():
        req = pb.SubmitRequest(session_id=1, stream_id=0)
        op = req.op.tensor_elementwise
        op.a.CopyFrom(desc(ta, [3, 4], [1, 3], [97, 98]))
        op.d.CopyFrom(desc(tb, [4, 3], [1, 5], [98, 97]))
        op.compute = compute
        op.alpha.re = alpha
        op.a_data.buffer_id = 3
        op.a_data.offset = 8
        op.d_data.buffer_id = 4
        op.d_data.offset = 16
        with open(os.path.join(vdir, "tensor_convert_" + name + ".bin"), "wb") as out:
            out.write(req.SerializeToString())

    rdir = os.path.join(CORPUS, "fuzz_ring")
    os.makedirs(rdir, exist_ok=True)

    def entry(length, kind, tag, body=b""):
        e = struct.pack("=IHHQ", length, kind, 0, tag) + body
        return e + b"\x00" * ((-len(e)) % 8)
    two = entry(5, 9, 1, b"hello") + entry(0, 1, 2)
    seeds = {
        "empty": struct.pack("=QQ", 0, 0),
        "two_entries": struct.pack("=QQ", len(two), 0) + two,
        "wrapped": struct.pack("=QQ", 1024 + 16, 1024 - 8) + entry(0, 1, 3)[8:] + b"\x00" * 1000
        + entry(0, 1, 3)[:8],
        "oversized_len": struct.pack("=QQ", 32, 0) + entry(0xFFFFFFF0, 1, 4),
    }
    for name, data in seeds.items():
        with open(os.path.join(rdir, name), "wb") as out:
            out.write(data)

    tdir = os.path.join(CORPUS, "fuzz_tokens")
    os.makedirs(tdir, exist_ok=True)
    tokens = {
        "two": "# comment\nalice 0123456789abcdef sessions=2 bytes=1M\n"
               "bob ZYXWVUTSRQPONMLK~+/=-._ queued-ops=7 priority-ceiling=-2\n",
        "all_limits": "a 0123456789abcdef sessions=1 bytes=8G queued-ops=1 priority-ceiling=3\n",
        "bad": "a 0123456789abcdef colour=blue\n",
    }
    for name, text in tokens.items():
        with open(os.path.join(tdir, name), "w") as out:
            out.write(text)


if __name__ == "__main__":
    main()
