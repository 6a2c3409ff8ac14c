"""LossPlot and CompilePipeline in a real browser: lessons 00 and 04 run in JupyterLab in headless Chromium.

Lesson 00: LossPlot must draw more than 5 frames while LeNet-5 trains (the browser draws the points Python
streams). Lesson 04: a click on each CompilePipeline stage button must change the picture. Screenshots:
artifacts/browser/loss_plot.png and compile_pipeline.png. The JupyterLab and Chromium set-up is
test_lab_step_through's (its own server, settings and profile in a temporary folder).
"""
import contextlib
import os
import secrets
import shutil
import subprocess
import sys

import pytest
from test_lab_step_through import (
    ALL_CELLS_RAN,
    ALL_PROMPTS_EMPTY,
    ANY_CELL_STARTED,
    CHROMIUM_FLAGS,
    ROOT,
    SCREENSHOT,
    find_chromium,
    free_port,
    lab_config,
    menu_command,
    stop_server,
    wait_for_server,
)

pytestmark = pytest.mark.browser
SHOTS = SCREENSHOT.parent


@contextlib.contextmanager
def lesson_page(tmp_path, lesson):
    """A JupyterLab page with ``lesson`` open (outputs cleared), after Run All has finished."""
    chromium = find_chromium()
    if chromium is None:
        pytest.skip("Chromium is not installed (Debian: apt-get install chromium). Set MSLAB_CHROMIUM to use another.")
    import nbformat
    from playwright.sync_api import TimeoutError as PlaywrightTimeout
    from playwright.sync_api import sync_playwright

    lessons = tmp_path / "lessons"
    shutil.copytree(ROOT / "notebooks", lessons, ignore=shutil.ignore_patterns(".ipynb_checkpoints"))
    nb = nbformat.read(lessons / lesson, as_version=4)
    for cell in nb.cells:
        if cell.cell_type == "code":
            cell.outputs, cell.execution_count = [], None
    nbformat.write(nb, lessons / lesson)
    env = lab_config(tmp_path / "jupyter")
    port, token = free_port(), secrets.token_hex(16)
    base = f"http://127.0.0.1:{port}"
    cmd = [sys.executable, "-m", "jupyter", "lab", "--no-browser", "--ServerApp.ip=127.0.0.1",
           f"--ServerApp.port={port}", "--ServerApp.port_retries=0", f"--IdentityProvider.token={token}",
           f"--ServerApp.root_dir={lessons}"]
    if hasattr(os, "geteuid") and os.geteuid() == 0:
        cmd.append("--allow-root")
    log_path = tmp_path / "jupyterlab.log"
    SHOTS.mkdir(parents=True, exist_ok=True)
    with open(log_path, "wb") as log:
        proc = subprocess.Popen(cmd, cwd=lessons, env=env, stdout=log, stderr=subprocess.STDOUT,
                                stdin=subprocess.DEVNULL, start_new_session=True)
    try:
        wait_for_server(proc, f"{base}/api/status?token={token}", log_path)
        with sync_playwright() as pw:
            context = pw.chromium.launch_persistent_context(
                str(tmp_path / "chromium-profile"), executable_path=chromium, headless=True,
                args=CHROMIUM_FLAGS, viewport={"width": 1400, "height": 1000})
            page = context.pages[0] if context.pages else context.new_page()
            try:
                page.set_default_timeout(60_000)
                page.on("console", lambda m: m.type in ("error", "warning") and print("console:", m.type, m.text))
                page.goto(f"{base}/lab/tree/{lesson}?token={token}")
                page.wait_for_selector(".jp-Notebook-ExecutionIndicator[data-status='idle']", timeout=90_000)
                page.wait_for_function(ALL_PROMPTS_EMPTY, timeout=30_000)
                page.locator(".jp-NotebookPanel .jp-Cell").first.click()
                for attempt in range(3):
                    menu_command(page, "Run", "runmenu:run-all")
                    try:
                        page.wait_for_function(ANY_CELL_STARTED, timeout=15_000)
                        break
                    except PlaywrightTimeout:
                        if attempt == 2:
                            raise
                page.wait_for_function(ALL_CELLS_RAN, timeout=180_000)
                errors = page.locator(".jp-OutputArea-output[data-mime-type='application/vnd.jupyter.stderr']",
                                      has_text="Traceback")
                assert errors.count() == 0, errors.first.inner_text()
                yield page
            except Exception:
                page.screenshot(path=str(SHOTS / f"failure_{lesson.split('_')[0]}.png"))
                print("prompts and outputs:", page.evaluate("""() => [...document.querySelectorAll('.jp-CodeCell')]
                    .map(c => (c.querySelector('.jp-InputArea-prompt') || {}).textContent + ' '
                         + [...c.querySelectorAll('.jp-OutputArea-output')].map(o => o.getAttribute('data-mime-type')
                           + ':' + o.innerText.slice(0, 200)).join(' | '))"""))
                raise
            finally:
                context.close()
    finally:
        stop_server(proc, base, token)


def test_loss_plot_draws_while_lesson_00_trains(tmp_path):
    with lesson_page(tmp_path, "00_welcome.ipynb") as page:
        canvas = page.locator('.mslab-loss-plot [data-mslab-role="loss-canvas"]').first
        canvas.wait_for(state="visible", timeout=60_000)
        page.wait_for_function("""() => /finished/.test(
            document.querySelector('.mslab-loss-plot [data-mslab-role="loss-status"]').textContent)""")
        frames = int(canvas.get_attribute("data-mslab-frames"))
        span = int(canvas.get_attribute("data-mslab-span-ms"))
        points = int(canvas.get_attribute("data-mslab-points"))
        print(f"LossPlot: {frames} frames with curves over {span} ms ({points} points)")
        assert points == 92  # 2 epochs x 46 batches, every loss drawn
        assert frames > 5, f"LossPlot drew only {frames} frames while training"
        canvas.scroll_into_view_if_needed()
        page.wait_for_timeout(300)
        page.locator(".mslab-loss-plot").first.screenshot(path=str(SHOTS / "loss_plot.png"))


def test_compile_pipeline_stage_selector_changes_the_picture(tmp_path):
    with lesson_page(tmp_path, "04_train_one_step.ipynb") as page:
        widget = page.locator(".mslab-compile-pipeline").first
        buttons = widget.locator('[data-mslab-role="stage-button"]')
        buttons.first.wait_for(state="visible", timeout=60_000)
        assert buttons.count() == 5
        picture = widget.locator('[data-mslab-role="stage-picture"]').first
        seen = []
        for i in range(5):
            buttons.nth(i).click()
            key = buttons.nth(i).get_attribute("data-mslab-stage")
            page.wait_for_function("""([k]) => document.querySelector(
                '.mslab-compile-pipeline [data-mslab-role="stage-picture"]').getAttribute('data-mslab-stage') === k""",
                                   arg=[key], timeout=10_000)
            n = picture.locator("[data-mslab-node]").count()
            outlined = picture.locator("[data-mslab-node].mslab-highlight").count()
            seen.append((key, n, outlined, "mslab-active" in (buttons.nth(i).get_attribute("class") or "")))
        print("CompilePipeline stages (key, node groups drawn, outlined, active):", seen)
        assert all(active for *_, active in seen)
        assert len({n for _, n, _, _ in seen}) >= 3, f"the pictures did not change: {seen}"
        assert seen[1][2] > 0  # the autodiff picture outlines what CSE merges
        buttons.nth(1).click()
        page.wait_for_timeout(300)
        widget.scroll_into_view_if_needed()
        widget.screenshot(path=str(SHOTS / "compile_pipeline.png"))
