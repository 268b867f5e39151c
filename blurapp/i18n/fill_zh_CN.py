"""Fill blurapp_zh_CN.ts with BlurApp's Simplified Chinese translations.

After `pyside6-lupdate` has added new source texts (see blurapp/i18n/README.md), add their
translations below and run: python blurapp/i18n/fill_zh_CN.py
"""

import html
import re
import sys
from pathlib import Path

TS = Path(__file__).with_name("blurapp_zh_CN.ts")

ZH_CN = {
    # Figures (shared with the command line)
    "image": "图像",
    "kernel": "卷积核",
    "NumPy": "NumPy",
    "JAX first call": "JAX 首次调用",
    "JAX steady": "JAX 稳定耗时",
    "speedup": "加速比",
    "transfers": "数据传输",
    "max abs diff": "最大绝对误差",
    "device": "设备",
    "JAX": "JAX",
    "includes compilation": "含编译时间",
    "program loaded from the compilation cache": "程序取自编译缓存",
    "already compiled": "已编译",
    "{size} × {size}, sigma {sigma}": "{size} × {size}，sigma {sigma}",
    "separable ({size} + {size} taps)": "可分离（{size} + {size} 次采样）",
    "median of {count}": "{count} 次的中位数",
    "NumPy ÷ JAX steady": "NumPy ÷ JAX 稳定耗时",
    "to device {to}, from device {back}": "传入设备 {to}，传回主机 {back}",
    "unavailable: {reason}": "不可用：{reason}",
    # FiguresPanel and TimingChart
    "Figures": "测量数据",
    "Out of date: {reason}": "已过期：{reason}",
    "Timings appear after a run": "运行后显示耗时",
    # MainWindow
    "2-D (tutorial)": "二维（教程方法）",
    "Separable": "可分离",
    "Blurred results": "模糊结果",
    "Original": "原图",
    "Difference": "差异",
    "Images": "图像",
    "All files": "所有文件",
    "Kernel size in pixels: odd, so the kernel has a centre": "卷积核尺寸（像素）：须为奇数，使卷积核有中心",
    "a&uto": "自动(&U)",
    "Choose the size from sigma: 2·ceil(3σ)+1": "按 sigma 选择尺寸：2·ceil(3σ)+1",
    "2-D: the tutorial's k × k taps. Separable: k taps along the rows, then k down the columns: the same blur in 2k taps instead of k².": "二维：教程中的 k × k 次采样。可分离：先沿行 k 次，再沿列 k 次：以 2k 次代替 k² 次得到同样的模糊。",
    "Run": "运行",
    "Blur with the chosen engines (Ctrl+R)": "用所选引擎进行模糊（Ctrl+R）",
    "Cancel": "取消",
    "Stop the run in progress (Esc)": "停止正在进行的运行（Esc）",
    "&Kernel size": "卷积核尺寸(&K)",
    "&Sigma": "Sigma(&S)",
    "Kernel used": "实际卷积核",
    "Algori&thm": "算法(&T)",
    "E&ngines": "引擎(&N)",
    "Sho&w": "显示(&W)",
    "Gaussian blur": "高斯模糊",
    "Gaussian sigma in pixels": "高斯 sigma（像素）",
    "Kernel size": "卷积核尺寸",
    "Automatic kernel size": "自动卷积核尺寸",
    "Sigma": "Sigma",
    "Sigma slider": "Sigma 滑块",
    "Algorithm": "算法",
    "Engines": "引擎",
    "Which engines a run uses": "一次运行使用哪些引擎",
    "Show": "显示",
    "What the panes show: results, original or difference": "窗格显示的内容：结果、原图或差异",
    "The kernel size a run will use": "运行时将使用的卷积核尺寸",
    "&File": "文件(&F)",
    "&Open…": "打开(&O)…",
    "Open &Recent": "最近打开(&R)",
    "&Save Results…": "保存结果(&S)…",
    "&Quit": "退出(&Q)",
    "&Edit": "编辑(&E)",
    "&Copy Selected Image": "复制所选图像(&C)",
    "&View": "视图(&V)",
    "Zoom &In": "放大(&I)",
    "Zoom &Out": "缩小(&O)",
    "&Fit to Window": "适应窗口(&F)",
    "&Actual Size (100%)": "实际大小 (100%)(&A)",
    "&Run": "运行(&R)",
    "&Cancel": "取消(&C)",
    "&Help": "帮助(&H)",
    "&Keyboard Shortcuts": "键盘快捷键(&K)",
    "&About BlurApp": "关于 BlurApp(&A)",
    "Both panes share this zoom: Ctrl+0 fits, Ctrl+1 is 100%": "两个窗格共用此缩放：Ctrl+0 适应窗口，Ctrl+1 为 100%",
    "Zoom {percent}": "缩放 {percent}",
    "(auto, 2·ceil(3σ)+1 = {size})": "（自动，2·ceil(3σ)+1 = {size}）",
    "Open Photo": "打开照片",
    "Opening {name}…": "正在打开 {name}…",
    "Could not open the photo": "无法打开照片",
    "Cannot Open Photo": "无法打开照片",
    "Invalid Kernel": "无效的卷积核",
    "Cancelled": "已取消",
    "NumPy %p%": "NumPy %p%",
    "NumPy: {done} of {total} kernel taps": "NumPy：已完成 {done} / {total} 次采样",
    "NumPy: starting…": "NumPy：正在开始…",
    "The run failed": "运行失败",
    "Run Failed": "运行失败",
    "The comparison failed: {reason}": "对比失败：{reason}",
    "earlier run, out of date": "较早的运行，已过期",
    "JAX {time} on {device}": "JAX {time}，设备 {device}",
    "JAX unavailable": "JAX 不可用",
    "Done: {figures}": "完成：{figures}",
    "Open a photo: File ▸ Open (Ctrl+O), or drop one here": "打开一张照片：文件 ▸ 打开（Ctrl+O），或拖放到此处",
    "The difference appears after a run with both engines": "用两个引擎运行后显示差异",
    "{engine} could not run:": "{engine} 无法运行：",
    "the parameters changed since this run; press Run": "此次运行后参数已更改；请点击运行",
    "a later run has replaced results on screen; press Run": "之后的运行已替换屏幕上的结果；请点击运行",
    "out of date": "已过期",
    "grayscale": "灰度",
    "identical outputs (all black)": "输出完全相同（全黑）",
    "black = 0, white = {white} ({levels} of an 8-bit level), stretched to be seen": "黑 = 0，白 = {white}（{levels} 个 8 位灰度级），已拉伸以便观察",
    "unavailable": "不可用",
    "GPU when present, else CPU": "有 GPU 时用 GPU，否则用 CPU",
    "not run yet: showing the original, press Run": "尚未运行：显示原图，请点击运行",
    "compiled": "已编译",
    "from cache": "取自缓存",
    "steady {steady} · first call {first} ({how})": "稳定 {steady} · 首次调用 {first}（{how}）",
    "separable": "可分离",
    "Save Results to Folder": "将结果保存到文件夹",
    "Replace Files?": "替换文件？",
    "These files already exist in {folder}:": "以下文件已存在于 {folder}：",
    "Replace them?": "是否替换？",
    "Cannot Save Results": "无法保存结果",
    "Saved {files} in {folder}": "已将 {files} 保存到 {folder}",
    "Copied the {engine} image": "已复制 {engine} 图像",
    "Clear Menu": "清空菜单",
    "no photo": "无照片",
    "About BlurApp": "关于 BlurApp",
    "The same Gaussian blur with NumPy on the CPU and with JAX-jit on the GPU (or the CPU), side by side.": "同一个高斯模糊，分别由 CPU 上的 NumPy 和 GPU（或 CPU）上的 JAX-jit 运行，并排对比。",
    "Warnings and errors are logged to:": "警告和错误记录在：",
    "Select the Other &Pane": "选择另一个窗格(&P)",
    "JAX: compiling and running…": "JAX：正在编译并运行…",
    "BlurApp is still running; the details are in the log.": "BlurApp 仍在运行；详情见日志。",
    "Unexpected Error": "意外错误",
    # FileProblem (messages about a file, from the core)
    "unexpected error: {reason}": "意外错误：{reason}",
    "this kind of image is not supported: {reason}": "不支持此类图像：{reason}",
    "the image is too large to open safely (over {limit} pixels)": "图像过大，无法安全打开（超过 {limit} 像素）",
    "this is not an image file BlurApp can read": "这不是 BlurApp 能读取的图像文件",
    "there is not enough memory to open this image": "内存不足，无法打开此图像",
    "the file is damaged or not a valid image ({reason})": "文件已损坏或不是有效的图像（{reason}）",
    "the image has no pixels": "图像没有像素",
    "the image is {width} × {height} pixels ({megapixels} MP); blurring it needs about {needed} GB of memory, but only {available} GB is available": "图像为 {width} × {height} 像素（{megapixels} 百万像素）；模糊它约需 {needed} GB 内存，但只有 {available} GB 可用",
    "this is a folder, not an image file": "这是文件夹，不是图像文件",
    "no such file": "文件不存在",
    "the file is empty": "文件为空",
    "the file is truncated (it ends before the image does)": "文件不完整（在图像结束之前就结束了）",
    "permission denied": "权限不足",
    "the file could not be read ({reason})": "无法读取文件（{reason}）",
    "this is a folder; give a file name": "这是文件夹；请给出文件名",
    "the folder {folder} does not exist": "文件夹 {folder} 不存在",
    "cannot write in {folder}: {reason}": "无法写入 {folder}：{reason}",
    "the file could not be written: {reason}": "无法写入文件：{reason}",
    "{format} cannot store this image: {reason}": "{format} 无法保存此图像：{reason}",
    # Issue 10: each pane chooses its engine, the engines to time, the session's wording
    "Time {engine}": "计时 {engine}",
    "The reference: every other engine is compared with it": "参照：其他每个引擎都与它比较",
    "Time this engine in each run, beside the reference": "每次运行时与参照一起为此引擎计时",
    "A pane shows {engine}, so every run times it: choose another engine for the pane "
    "to untick it": "有一个窗格显示 {engine}，因此每次运行都会为它计时：为该窗格选择其他引擎后才能取消勾选",
    "Nothing to Run": "没有可运行的引擎",
    "Tick at least one engine to time.": "请至少勾选一个要计时的引擎。",
    "The engine this pane shows": "此窗格显示的引擎",
    "Engine of the {engine} pane": "{engine} 窗格的引擎",
    "another photo is open": "已打开另一张照片",
    "kernel size changed from {old} to {new} since this run": "此次运行后卷积核尺寸已从 {old} 改为 {new}",
    "sigma changed from {old} to {new} since this run": "此次运行后 sigma 已从 {old} 改为 {new}",
    "algorithm changed from {old} to {new} since this run": "此次运行后算法已从 {old} 改为 {new}",
    "a later run replaced other results": "之后的运行替换了其他结果",
    "{reasons}; press Run": "{reasons}；请按“运行”",
    "Choose another engine for this pane to see its difference from {reference}": "为此窗格选择另一个引擎，以查看它与 {reference} 的差异",
    "The difference appears after a run with {reference} and {engine}": "用 {reference} 和 {engine} 运行后显示差异",
    "steady {steady}": "稳定 {steady}",
    "first call {first}": "首次调用 {first}",
    "{engine} {time} on {device}": "{engine} {time}，设备 {device}",
    "{engine} unavailable": "{engine} 不可用",
    "{engine}: {done} of {total} kernel taps": "{engine}：已完成 {done} / {total} 次采样",
    "{engine}: running…": "{engine}：正在运行…",
    # Added with the hardening of issue 9
    "&Copy Versions": "复制版本信息(&C)",
    "Copy the versions, to paste into a bug report": "复制版本信息，以便粘贴到错误报告中",
    "the {size} × {size} kernel reaches only {reach}σ from its centre, so sigma {sigma} is cut short and the blur looks boxy; {auto} × {auto} (auto) would reach 3σ": "{size} × {size} 的卷积核离中心只有 {reach}σ，sigma {sigma} 被截断，模糊会像方框模糊；{auto} × {auto}（自动）可达 3σ",
    "{diff} ({levels} of {count} levels), within {tolerance}": "{diff}（{count} 级中的 {levels} 级），在 {tolerance} 以内",
    "{diff} ({levels} of {count} levels), NOT within {tolerance}": "{diff}（{count} 级中的 {levels} 级），超出 {tolerance}",
    "Time per blur (ms)": "每次模糊的耗时（毫秒）",
    "this is not a regular file": "这不是普通文件",
    "the file name is too long for the file system; choose a shorter one": "文件名对文件系统来说太长；请选择更短的名称",
    "this is the photo being blurred; BlurApp never writes over it, choose another name": "这是正在模糊的照片；BlurApp 从不覆盖它，请选择其他名称",
    "unknown output format {extension}; use {accepted}": "未知的输出格式 {extension}；请使用 {accepted}",
    "kernel size {typed} is below the smallest, 1: using 1": "卷积核大小 {typed} 小于最小值 1：使用 1",
    "kernel size {typed} is above the largest, {largest}: using {largest}": "卷积核大小 {typed} 大于最大值 {largest}：使用 {largest}",
    "kernel sizes are odd, so the kernel has a centre: using {size}": "卷积核大小须为奇数，以便有中心：使用 {size}",
    "not loaded yet": "尚未加载",
    "device not known yet": "设备尚未确定",
    "System": "系统",
    "Notes on the parameters": "参数说明",
    "sample photo ({name})": "示例照片（{name}）",
    "Save Results Made with Different Parameters?": "保存用不同参数得到的结果？",
    "The two results were not made with the same parameters:": "两个结果不是用相同参数得到的：",
    "Each file's name and description say which parameters made it. Save both?": "每个文件的名称和说明都注明了所用参数。两个都保存吗？",
    "sigma {typed} is below the smallest, {smallest}: using {smallest}": "sigma {typed} 小于最小值 {smallest}：使用 {smallest}",
    "sigma {typed} is above the largest, {largest}: using {largest}": "sigma {typed} 大于最大值 {largest}：使用 {largest}",
    "Bar length is proportional to time. A bar with a break is too long to draw to scale; its time is printed beside it.": "条形长度与耗时成正比。带断口的条形太长，无法按比例绘制；其耗时标在旁边。",
    # Engines (the registry's titles) and the figures of engines beyond the tutorial's pair
    "JAX-jit": "JAX-jit",
    "JAX without jit": "不用 jit 的 JAX",
    "first call {time}": "首次调用 {time}",
    "{speedup} NumPy's speed": "NumPy 速度的 {speedup}",
    "max abs diff {difference}": "最大绝对误差 {difference}",
    # ResultPane
    "{engine} image": "{engine} 图像",
    "{engine}: wheel or Ctrl +/− to zoom, drag or arrow keys to pan; both panes move together": "{engine}：滚轮或 Ctrl +/− 缩放，拖动或方向键平移；两个窗格同步移动",
    # ShortcutsDialog
    "Keyboard Shortcuts": "键盘快捷键",
    "Menu": "菜单",
    "Action": "操作",
    "Keys": "按键",
    "Keyboard shortcuts": "键盘快捷键",
    "Tab moves through the parameters and the two panes; in a pane the arrow keys pan. Alt and an underlined letter jumps to a parameter.": "Tab 键在参数和两个窗格之间移动；在窗格中用方向键平移。Alt 加带下划线的字母可跳到对应参数。",
}


def main() -> int:
    text = TS.read_text(encoding="utf-8")
    missing = []

    def fill(match: re.Match) -> str:
        source = html.unescape(match.group(1))
        translation = ZH_CN.get(source)
        if translation is None:
            missing.append(source)
            return match.group(0)
        return (
            f"<source>{match.group(1)}</source>\n        "
            f"<translation>{html.escape(translation, quote=False)}</translation>"
        )

    text = re.sub(
        r"<source>(.*?)</source>\s*<translation[^>]*>.*?</translation>", fill, text, flags=re.S
    )
    TS.write_text(text, encoding="utf-8")
    for source in missing:
        print(f"no translation for: {source!r}", file=sys.stderr)
    return 1 if missing else 0


if __name__ == "__main__":
    raise SystemExit(main())
