# The atlas (issue 28, atmtcp.atlas): every drop policy x TCP x the papers' scenarios, outside `rule all`
# (`make reproduce`). `make atlas` (or `snakemake atlas`) builds one experiment job per scenario
# (atlas.<scenario>, through rules/simulate.smk's experiment rule: on SLURM one cluster job per scenario),
# then atlas.grid stacking them, then notebooks/atlas.ipynb, which writes the heat maps, the conclusions
# table, the recommendation and the closing note into {figures_dir}/atlas/.
from atmtcp.atlas.measures import METRICS
from atmtcp.experiments import STUDY_EXPERIMENTS

ATLAS_TARGETS = [t for t in STUDY_EXPERIMENTS if t.startswith("atlas.")]
ATLAS_FIGURES = [f"{FIGURES}/atlas/atlas.{name}.png" for name in METRICS]


rule notebook_atlas:
    message:
        "Executing notebooks/atlas.ipynb (quick={params.quick}) -> {output.notebook} and {FIGURES}/atlas/"
    input:
        notebook="notebooks/atlas.ipynb",
        results=[result(t) for t in ATLAS_TARGETS],
        sources=PACKAGE_SOURCES,
    output:
        notebook="notebooks/executed/atlas.ipynb",
        figures=ATLAS_FIGURES,
        conclusions=f"{FIGURES}/atlas/atlas.conclusions.md",
        conclusions_csv=f"{FIGURES}/atlas/atlas.conclusions.csv",
        tests=f"{FIGURES}/atlas/atlas.tests.csv",
        means=f"{FIGURES}/atlas/atlas.means.csv",
        recommendation=f"{FIGURES}/atlas/atlas.recommendation.md",
        closing_note=f"{FIGURES}/atlas/atlas.closing_note.md",
    params:
        **notebook_parameters(),
    resources:
        **cluster_resources("notebook_atlas"),
    log:
        "logs/notebooks/atlas.log",
    benchmark:
        f"{BENCHMARKS}/notebooks/atlas.tsv"
    shell:
        "{PAPERMILL} {input.notebook} {output.notebook}"
        " -p results_dir {params.results_dir} -p figures_dir {params.figures_dir} -p quick {params.quick}"
        " -p run_missing {params.run_missing}"
        " --cwd notebooks -k python3 > {log} 2>&1"


rule atlas:
    input:
        rules.notebook_atlas.output,
