#!/usr/bin/env python3
"""Issue 36's batch workloads as whole processes, beside the field's tools in the same run (hyperfine):

- reads: Mason's simulated Illumina reads (150 bases, `mason_simulator` of seqan-apps, fixed seed)
  from the E. coli genome of wtdbg2-examples, searched on both strands within 4 edits (all hits, SAM
  out): `strmatch approx --seq -k 4 --sam -f reads.fq ecoli.fa` against RazerS 3 fully sensitive
  (`razers3 -i 97 -rr 100 -m 1000`: 97% identity is 4 errors in 150 bases) writing SAM too;
  with Hamming distance (`--metric hamming -k 3`) against `bowtie -a -v 3` where bowtie is installed;
- guides: CRISPR guides of 23 bases cut from the human chrX slice of smalt-examples (the first
  20,000,000 bases, N removed, as one FASTA record), both strands, k = 3, the hits counted
  (`strmatch approx --seq -k 3 -c -f guides.fa chrx.fa`); no peer here (Sassy is not packaged; the
  in-process Edlib ratio is approx_threads_bench's guides section);
- gpu-reads (with --gpu-reads N, all threads only): N Mason reads of 150 bases simulated from the
  whole chrX slice (hs37chrXtrunc, N removed: 66 Mbp), both strands, k = 4, SAM out, on the GPU
  (`--backend cuda`: pigeonhole-batch's filter on the GPU) and on the CPU's threads, against RazerS 3
  with every thread (issue 36's GPU target: 1,000,000 reads, at least 10x RazerS 3), and the same
  with -c (counts, no SAM) for strmatch.

Each row on one thread and on all (`-j 0`, `-tc` / `-p` the machine's cores for the peers), the mean
of --runs runs; the reads rows also give each tool's mapped reads and SAM records (one run each,
outside the timing) and strmatch's peak RSS. Writes OUT.csv and OUT.md (bench/common/results.py).

    bench/approx/batch_peers.py --binary build/bin/strmatch --out bench/results/approx/batch-peers_dev-2core

Inputs are made in --work from the Debian packages (seqan-apps, wtdbg2-examples, smalt-examples,
bowtie) unless they are there already: `--prepare-only` makes them (and copies the peers' binaries
with their libraries under WORK/peers when --copy-peers is given) for a machine without the packages,
which then runs with PATH=WORK/peers/bin and LD_LIBRARY_PATH=WORK/peers/lib for the peers.
"""
import argparse
import gzip
import os
import random
import shutil
import subprocess
import sys
import tarfile

sys.dont_write_bytecode = True  # no __pycache__ in the tree beside bench/common/results.py
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "common"))
import results  # noqa: E402

ECOLI_TAR = "/usr/share/doc/wtdbg2-examples/selfSampleData.tar.gz"
CHRX_PATH = ["/usr/share/doc/smalt/test/data/hs37chrXtrunc.fa.gz"]  # --chrx replaces it
MASON_PATH = ["/usr/lib/seqan/bin/mason_simulator"]  # --mason replaces it
GUIDE = 23


def prepare(work, reads, guides, guide_bases, copy_peers):
    os.makedirs(work, exist_ok=True)
    ecoli = os.path.join(work, "ecoli.fa")
    if not os.path.exists(ecoli):
        with tarfile.open(ECOLI_TAR) as t:
            data = t.extractfile("selfSampleData/reference.fasta").read()
        with open(ecoli, "wb") as f:
            f.write(data)
    fq = os.path.join(work, "reads%d.fq" % reads)
    if not os.path.exists(fq) and not os.path.exists(fq + ".gz"):
        subprocess.run([MASON_PATH[0], "-ir", ecoli, "-n", str(reads), "--illumina-read-length", "150", "-o", fq,
                        "--seed", "36", "-q"], check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        for extra in (fq + ".fai", ecoli + ".fai"):
            if os.path.exists(extra):
                os.remove(extra)
    chrx = os.path.join(work, "chrx.fa")
    if not os.path.exists(chrx):
        with gzip.open(CHRX_PATH[0], "rb") as f:
            seq = b"".join(line.strip() for line in f if not line.startswith(b">")).replace(b"N", b"")
        seq = seq[:guide_bases]
        with open(chrx, "wb") as out:
            out.write(b">chrX_slice first %d bases of hs37chrXtrunc, N removed\n" % len(seq))
            out.write(b"\n".join(seq[i:i + 60] for i in range(0, len(seq), 60)) + b"\n")
    gfa = os.path.join(work, "guides%d.fa" % guides)
    if not os.path.exists(gfa):
        with open(chrx, "rb") as f:
            seq = b"".join(line.strip() for line in f if not line.startswith(b">"))
        r = random.Random(36)
        with open(gfa, "wb") as out:
            for i in range(guides):
                at = r.randrange(len(seq) - GUIDE)
                g = bytearray(seq[at:at + GUIDE])
                for _ in range(r.randrange(4)):  # 0..3 substitutions
                    g[r.randrange(GUIDE)] = ord(r.choice("ACGT"))
                out.write(b">g%d\n%s\n" % (i, bytes(g)))
    if copy_peers:
        peers = os.path.join(work, "peers")
        for sub in ("bin", "lib"):
            os.makedirs(os.path.join(peers, sub), exist_ok=True)
        for tool in ("razers3", "hyperfine", "bowtie", "bowtie-align-s", "bowtie-build", "bowtie-build-s"):
            path = shutil.which(tool)
            if not path:
                continue
            shutil.copy(os.path.realpath(path), os.path.join(peers, "bin", tool))
            out = subprocess.run(["ldd", path], stdout=subprocess.PIPE, text=True).stdout
            for line in out.splitlines():
                parts = line.split("=>")
                if len(parts) == 2 and parts[1].strip().startswith("/"):
                    lib = parts[1].split()[0]
                    base = os.path.basename(lib)
                    if not base.startswith(("libc.so", "libm.so", "libpthread", "libdl", "ld-linux", "librt")):
                        shutil.copy(lib, os.path.join(peers, "lib", base))
    return ecoli, fq if os.path.exists(fq) else fq + ".gz", chrx, gfa


def prepare_gpu_reads(work, reads):
    """The whole chrX slice (N removed) and `reads` Mason reads of 150 bases from it."""
    chrx = os.path.join(work, "chrx66.fa")
    if not os.path.exists(chrx):
        with gzip.open(CHRX_PATH[0], "rb") as f:
            seq = b"".join(line.strip() for line in f if not line.startswith(b">")).replace(b"N", b"")
        with open(chrx, "wb") as out:
            out.write(b">chrX_slice hs37chrXtrunc, N removed\n")
            out.write(b"\n".join(seq[i:i + 60] for i in range(0, len(seq), 60)) + b"\n")
    fq = os.path.join(work, "chrx-reads%d.fq" % reads)
    if not os.path.exists(fq):
        subprocess.run([MASON_PATH[0], "-ir", chrx, "-n", str(reads), "--illumina-read-length", "150", "-o", fq, "--seed",
                        "36", "-q", "--num-threads", str(os.cpu_count() or 1)], check=True,
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        for extra in (fq + ".fai", chrx + ".fai"):
            if os.path.exists(extra):
                os.remove(extra)
    return chrx, fq


def sam_counts(path):
    """(mapped reads, alignment records) of a SAM file."""
    reads, records = set(), 0
    with open(path, "rb") as f:
        for line in f:
            if line.startswith(b"@"):
                continue
            fields = line.split(b"\t", 3)
            if int(fields[1]) & 4:
                continue
            records += 1
            reads.add(fields[0])
    return len(reads), records


def peak_rss_mb(cmd):
    out = subprocess.run(["/usr/bin/time", "-f", "%M", "sh", "-c", cmd + " > /dev/null"],
                         stderr=subprocess.PIPE, text=True).stderr.strip().splitlines()
    try:
        return int(out[-1]) / 1024.0
    except (ValueError, IndexError):
        return None


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--binary")
    ap.add_argument("--out")
    ap.add_argument("--work", default="/tmp/strmatch-batch-bench")
    ap.add_argument("--reads", type=int, default=100000)
    ap.add_argument("--guides", type=int, default=1000)
    ap.add_argument("--guide-bases", type=int, default=20000000)
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--threads", default="1,0", help="thread counts, 0 meaning all (default 1,0)")
    ap.add_argument("--skip", default="", help="comma-separated groups to leave out: reads, hamming, guides, gpu-reads-cpu (the "
                    "gpu-reads group's CPU row)")
    ap.add_argument("--gpu-reads", type=int, default=0,
                    help="the gpu-reads group's read count (0: no such group); its rows run on all threads only")
    ap.add_argument("--mason", default=MASON_PATH[0], help="mason_simulator (default: seqan-apps')")
    ap.add_argument("--chrx", default=CHRX_PATH[0], help="hs37chrXtrunc.fa.gz (default: smalt-examples')")
    ap.add_argument("--prepare-only", action="store_true")
    ap.add_argument("--copy-peers", action="store_true")
    ap.add_argument("--machine", default=None)
    ap.add_argument("--strmatch-args", default="", help="options added to every strmatch command (e.g. --backend cpu)")
    ap.add_argument("--peers", default=None,
                    help="a folder of --copy-peers (bin/, lib/): the peers and hyperfine run from it, the peers "
                         "with LD_LIBRARY_PATH=PEERS/lib (strmatch without it)")
    a = ap.parse_args()
    peer_env = ""
    if a.peers:
        peers = os.path.abspath(a.peers)
        os.environ["PATH"] = os.path.join(peers, "bin") + os.pathsep + os.environ.get("PATH", "")
        peer_env = "LD_LIBRARY_PATH=%s " % os.path.join(peers, "lib")
    MASON_PATH[0] = a.mason
    CHRX_PATH[0] = a.chrx
    ecoli, fq, chrx, gfa = prepare(a.work, a.reads, a.guides, a.guide_bases, a.copy_peers)
    if a.gpu_reads:
        chrx66, xfq = prepare_gpu_reads(a.work, a.gpu_reads)
    if fq.endswith(".gz") and not os.path.exists(fq[:-3]):
        with gzip.open(fq, "rb") as f, open(fq[:-3], "wb") as out:
            shutil.copyfileobj(f, out)
    fq = fq[:-3] if fq.endswith(".gz") else fq
    if a.prepare_only:
        print("inputs in %s: %s" % (a.work, ", ".join(os.path.basename(p) for p in (ecoli, fq, chrx, gfa))))
        return 0
    b = os.path.abspath(a.binary)
    extra = " " + a.strmatch_args if a.strmatch_args else ""
    cores = os.cpu_count() or 1
    skip = set(x for x in a.skip.split(",") if x)
    bowtie = shutil.which("bowtie") if "hamming" not in skip else None
    if bowtie:
        idx = os.path.join(a.work, "ecoli_idx")
        if not os.path.exists(idx + ".1.ebwt"):
            subprocess.run(peer_env + "bowtie-build -q %s %s" % (ecoli, idx), shell=True, check=True,
                           stdout=subprocess.DEVNULL)
    sam = os.path.join(a.work, "out.sam")
    rows = []
    for threads in [int(t) for t in a.threads.split(",")]:
        t = threads if threads > 0 else cores
        label = str(threads) if threads > 0 else "all (%d)" % cores
        cases = []  # (group, name, command, sam or None, peer of)
        if "reads" not in skip:
            cases.append(("reads", "strmatch approx --seq -k 4 --sam",
                          ("%s approx" + extra + " --seq -j %d -k 4 --sam -f %s %s > %s") % (b, threads, fq, ecoli, sam), sam, None))
            cases.append(("reads", "razers3 -i 97 -rr 100 -m 1000",
                          peer_env + "razers3 -tc %d -i 97 -rr 100 -m 1000 -o %s %s %s > /dev/null" % (t, sam, ecoli, fq), sam,
                          "strmatch approx --seq -k 4 --sam"))
        if bowtie:
            cases.append(("hamming", "strmatch approx --seq --metric hamming -k 3 --sam",
                          ("%s approx" + extra + " --seq -j %d --metric hamming -k 3 --sam -f %s %s > %s") % (b, threads, fq, ecoli,
                                                                                                 sam), sam, None))
            cases.append(("hamming", "bowtie -a -v 3 --sam",
                          peer_env + "bowtie -p %d -a -v 3 --sam %s -q %s > %s 2> /dev/null" % (t, idx, fq, sam), sam,
                          "strmatch approx --seq --metric hamming -k 3 --sam"))
        if a.gpu_reads and threads == 0:
            cases.append(("gpu-reads", "strmatch approx --seq -k 4 --sam --backend cuda",
                          ("%s approx" + extra + " --seq --backend cuda -k 4 --sam -f %s %s > %s") % (b, xfq, chrx66, sam),
                          sam, None))
            if "gpu-reads-cpu" not in skip:
                cases.append(("gpu-reads", "strmatch approx --seq -k 4 --sam --backend cpu",
                              ("%s approx" + extra + " --seq --backend cpu -j 0 -k 4 --sam -f %s %s > %s") %
                              (b, xfq, chrx66, sam), sam, None))
            cases.append(("gpu-reads", "razers3 -i 97 -rr 100 -m 1000 (chrX)",
                          peer_env + "razers3 -tc %d -i 97 -rr 100 -m 1000 -o %s %s %s > /dev/null" % (t, sam, chrx66, xfq),
                          sam, "strmatch approx --seq -k 4 --sam --backend cuda"))
            cases.append(("gpu-reads", "strmatch approx --seq -k 4 -c --backend cuda",
                          ("%s approx" + extra + " --seq --backend cuda -k 4 -c -f %s %s") % (b, xfq, chrx66), None, None))
        if "guides" not in skip:
            cases.append(("guides", "strmatch approx --seq -k 3 -c (guides)",
                          ("%s approx" + extra + " --seq -j %d -k 3 -c -f %s %s") % (b, threads, gfa, chrx), None, None))
        counts = {}
        for group, name, cmd, out, _ in cases:  # one run each for the counts, before the timing
            res = subprocess.run(cmd, shell=True, stdout=subprocess.PIPE, check=False)
            counts[name] = sam_counts(out) if out else (None, res.stdout.decode().strip())
        timed = results.hyperfine([(c[1], c[2]) for c in cases], a.runs,
                                  os.path.join(a.work, "hyperfine-%s.json" % threads))
        for group, name, cmd, out, peer_of in cases:
            mean = timed[name]["mean"]
            ratio = ""
            if peer_of:  # the peer's time over strmatch's: above 1, strmatch is faster
                ratio = "%.2f" % (mean / timed[peer_of]["mean"])
            mapped, records = counts[name]
            rss = ""
            if name.startswith("strmatch") and group in ("reads", "gpu-reads") and out:
                r = peak_rss_mb(cmd.rsplit(">", 1)[0])
                rss = "%.0f" % r if r is not None else ""
            rows.append([label, group, name, "%.3f" % mean, "%.3f" % (timed[name]["stddev"] or 0),
                         "" if mapped is None else str(mapped), str(records), ratio, rss])
    cols = [results.Column("threads"), results.Column("group"), results.Column("case"),
            results.Column("mean_s", True), results.Column("stddev_s", True), results.Column("mapped_reads", True),
            results.Column("records_or_count", True), results.Column("peer_over_strmatch", True),
            results.Column("peak_rss_MB", True)]
    table = results.ResultTable(cols)
    for r in rows:
        table.add(r)
    title = ("Batch approximate search, whole processes (hyperfine, mean of %d runs): %s%s; %d Mason reads of 150 "
             "bases from E. coli (wtdbg2-examples), both strands; %d guides of %d bases over %d bases of chrX "
             "(smalt-examples), both strands; machine %s" % (a.runs, os.path.basename(b), extra, a.reads, a.guides, GUIDE,
                                                             a.guide_bases, a.machine or results.machine_name()))
    if a.gpu_reads:
        title += ("; gpu-reads: %d Mason reads of 150 bases from the whole chrX slice (66 Mbp, N removed), both "
                  "strands, k = 4" % a.gpu_reads)
    results.write_titled(a.out, title, table)
    return 0


if __name__ == "__main__":
    sys.exit(main())
