"""LossPlot and CompilePipeline in a real browser: lessons 00 and 04 run in JupyterLab in headless Chromium.

Lesson 00: LossPlot must draw more than 5 frames while LeNet-5 trains (the browser draws the points Python
streams). Lesson 04: a click on each CompilePipeline stage button must change the picture. Screenshots:
artifacts/browser/loss_plot.png and compile_pipeline.png. The JupyterLab and Chromium set-up is
test_lab_step_through's lesson_page (its own server, settings and profile in a temporary folder).
"""
import pytest
from test_lab_step_through import SCREENSHOT, lesson_page

pytestmark = pytest.mark.browser
SHOTS = SCREENSHOT.parent


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
        assert points == 230  # 5 epochs x 46 batches, every loss drawn
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
