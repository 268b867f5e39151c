<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="zh_CN" sourcelanguage="en">
<context>
    <name>AboutDialog</name>
    <message>
        <location filename="../ui/main_window.py" line="386"/>
        <source>About BlurApp</source>
        <translation>关于 BlurApp</translation>
    </message>
    <message>
        <location filename="../ui/main_window.py" line="395"/>
        <source>The same Gaussian blur with NumPy on the CPU and with JAX-jit on the GPU (or the CPU), side by side.</source>
        <translation>同一个高斯模糊，分别由 CPU 上的 NumPy 和 GPU（或 CPU）上的 JAX-jit 运行，并排对比。</translation>
    </message>
    <message>
        <location filename="../ui/main_window.py" line="399"/>
        <source>Warnings and errors are logged to:</source>
        <translation>警告和错误记录在：</translation>
    </message>
    <message>
        <location filename="../ui/main_window.py" line="407"/>
        <source>&amp;Copy Versions</source>
        <translation>复制版本信息(&amp;C)</translation>
    </message>
    <message>
        <location filename="../ui/main_window.py" line="409"/>
        <source>Copy the versions, to paste into a bug report</source>
        <translation>复制版本信息，以便粘贴到错误报告中</translation>
    </message>
</context>
<context>
    <name>Engines</name>
    <message>
        <location filename="../core/engines.py" line="148"/>
        <source>NumPy</source>
        <translation>NumPy</translation>
    </message>
    <message>
        <location filename="../core/engines.py" line="149"/>
        <source>JAX-jit</source>
        <translation>JAX-jit</translation>
    </message>
    <message>
        <location filename="../core/engines.py" line="150"/>
        <source>JAX without jit</source>
        <translation>不用 jit 的 JAX</translation>
    </message>
</context>
<context>
    <name>Figures</name>
    <message>
        <location filename="../core/figures.py" line="24"/>
        <source>image</source>
        <translation>图像</translation>
    </message>
    <message>
        <location filename="../core/figures.py" line="25"/>
        <source>kernel</source>
        <translation>卷积核</translation>
    </message>
    <message>
        <location filename="../core/figures.py" line="26"/>
        <source>NumPy</source>
        <translation>NumPy</translation>
    </message>
    <message>
        <location filename="../core/figures.py" line="27"/>
        <source>JAX first call</source>
        <translation>JAX 首次调用</translation>
    </message>
    <message>
        <location filename="../core/figures.py" line="28"/>
        <source>JAX steady</source>
        <translation>JAX 稳定耗时</translation>
    </message>
    <message>
        <location filename="../core/figures.py" line="29"/>
        <source>speedup</source>
        <translation>加速比</translation>
    </message>
    <message>
        <location filename="../core/figures.py" line="30"/>
        <source>transfers</source>
        <translation>数据传输</translation>
    </message>
    <message>
        <location filename="../core/figures.py" line="31"/>
        <source>max abs diff</source>
        <translation>最大绝对误差</translation>
    </message>
    <message>
        <location filename="../core/figures.py" line="32"/>
        <source>device</source>
        <translation>设备</translation>
    </message>
    <message>
        <location filename="../core/figures.py" line="33"/>
        <source>JAX</source>
        <translation>JAX</translation>
    </message>
    <message>
        <location filename="../core/figures.py" line="37"/>
        <source>includes compilation</source>
        <translation>含编译时间</translation>
    </message>
    <message>
        <location filename="../core/figures.py" line="38"/>
        <source>program loaded from the compilation cache</source>
        <translation>程序取自编译缓存</translation>
    </message>
    <message>
        <location filename="../core/figures.py" line="41"/>
        <source>already compiled</source>
        <translation>已编译</translation>
    </message>
    <message>
        <location filename="../core/figures.py" line="49"/>
        <source>{size} × {size}, sigma {sigma}</source>
        <translation>{size} × {size}，sigma {sigma}</translation>
    </message>
    <message>
        <location filename="../core/figures.py" line="54"/>
        <source>separable ({size} + {size} taps)</source>
        <translation>可分离（{size} + {size} 次采样）</translation>
    </message>
    <message>
        <location filename="../core/figures.py" line="62"/>
        <source>the {size} × {size} kernel reaches only {reach}σ from its centre, so sigma {sigma} is cut short and the blur looks boxy; {auto} × {auto} (auto) would reach 3σ</source>
        <translation>{size} × {size} 的卷积核离中心只有 {reach}σ，sigma {sigma} 被截断，模糊会像方框模糊；{auto} × {auto}（自动）可达 3σ</translation>
    </message>
    <message>
        <location filename="../core/figures.py" line="101"/>
        <source>{diff} ({levels} of {count} levels), within {tolerance}</source>
        <translation>{diff}（{count} 级中的 {levels} 级），在 {tolerance} 以内</translation>
    </message>
    <message>
        <location filename="../core/figures.py" line="105"/>
        <source>{diff} ({levels} of {count} levels), NOT within {tolerance}</source>
        <translation>{diff}（{count} 级中的 {levels} 级），超出 {tolerance}</translation>
    </message>
    <message>
        <location filename="../core/figures.py" line="148"/>
        <source>median of {count}</source>
        <translation>{count} 次的中位数</translation>
    </message>
    <message>
        <location filename="../core/figures.py" line="165"/>
        <source>NumPy ÷ JAX steady</source>
        <translation>NumPy ÷ JAX 稳定耗时</translation>
    </message>
    <message>
        <location filename="../core/figures.py" line="166"/>
        <source>to device {to}, from device {back}</source>
        <translation>传入设备 {to}，传回主机 {back}</translation>
    </message>
    <message>
        <location filename="../core/figures.py" line="195"/>
        <source>first call {time}</source>
        <translation>首次调用 {time}</translation>
    </message>
    <message>
        <location filename="../core/figures.py" line="197"/>
        <source>{speedup} NumPy&apos;s speed</source>
        <translation>NumPy 速度的 {speedup}</translation>
    </message>
    <message>
        <location filename="../core/figures.py" line="200"/>
        <source>max abs diff {difference}</source>
        <translation>最大绝对误差 {difference}</translation>
    </message>
    <message>
        <location filename="../core/figures.py" line="155"/>
        <source>unavailable: {reason}</source>
        <translation>不可用：{reason}</translation>
    </message>
</context>
<context>
    <name>FiguresPanel</name>
    <message>
        <location filename="../ui/figures_panel.py" line="271"/>
        <source>Figures</source>
        <translation>测量数据</translation>
    </message>
    <message>
        <location filename="../ui/figures_panel.py" line="281"/>
        <source>Time per blur (ms)</source>
        <translation>每次模糊的耗时（毫秒）</translation>
    </message>
    <message>
        <location filename="../ui/figures_panel.py" line="355"/>
        <source>Out of date: {reason}</source>
        <translation>已过期：{reason}</translation>
    </message>
</context>
<context>
    <name>FileProblem</name>
    <message>
        <location filename="../ui/worker.py" line="145"/>
        <source>unexpected error: {reason}</source>
        <translation>意外错误：{reason}</translation>
    </message>
    <message>
        <location filename="../core/photo.py" line="90"/>
        <source>this kind of image is not supported: {reason}</source>
        <translation>不支持此类图像：{reason}</translation>
    </message>
    <message>
        <location filename="../core/photo.py" line="96"/>
        <source>the image is too large to open safely (over {limit} pixels)</source>
        <translation>图像过大，无法安全打开（超过 {limit} 像素）</translation>
    </message>
    <message>
        <location filename="../core/photo.py" line="103"/>
        <source>this is not an image file BlurApp can read</source>
        <translation>这不是 BlurApp 能读取的图像文件</translation>
    </message>
    <message>
        <location filename="../core/photo.py" line="107"/>
        <source>there is not enough memory to open this image</source>
        <translation>内存不足，无法打开此图像</translation>
    </message>
    <message>
        <location filename="../core/photo.py" line="115"/>
        <source>the file is damaged or not a valid image ({reason})</source>
        <translation>文件已损坏或不是有效的图像（{reason}）</translation>
    </message>
    <message>
        <location filename="../core/photo.py" line="119"/>
        <source>the image has no pixels</source>
        <translation>图像没有像素</translation>
    </message>
    <message>
        <location filename="../core/photo.py" line="151"/>
        <source>the image is {width} × {height} pixels ({megapixels} MP); blurring it needs about {needed} GB of memory, but only {available} GB is available</source>
        <translation>图像为 {width} × {height} 像素（{megapixels} 百万像素）；模糊它约需 {needed} GB 内存，但只有 {available} GB 可用</translation>
    </message>
    <message>
        <location filename="../core/photo.py" line="169"/>
        <source>this is a folder, not an image file</source>
        <translation>这是文件夹，不是图像文件</translation>
    </message>
    <message>
        <location filename="../core/photo.py" line="173"/>
        <source>this is not a regular file</source>
        <translation>这不是普通文件</translation>
    </message>
    <message>
        <location filename="../core/photo.py" line="175"/>
        <source>no such file</source>
        <translation>文件不存在</translation>
    </message>
    <message>
        <location filename="../core/photo.py" line="69"/>
        <source>the file is empty</source>
        <translation>文件为空</translation>
    </message>
    <message>
        <location filename="../core/photo.py" line="183"/>
        <source>the file is truncated (it ends before the image does)</source>
        <translation>文件不完整（在图像结束之前就结束了）</translation>
    </message>
    <message>
        <location filename="../core/photo.py" line="188"/>
        <source>permission denied</source>
        <translation>权限不足</translation>
    </message>
    <message>
        <location filename="../core/photo.py" line="189"/>
        <source>the file could not be read ({reason})</source>
        <translation>无法读取文件（{reason}）</translation>
    </message>
    <message>
        <location filename="../core/saving.py" line="129"/>
        <source>this is a folder; give a file name</source>
        <translation>这是文件夹；请给出文件名</translation>
    </message>
    <message>
        <location filename="../core/saving.py" line="134"/>
        <source>the folder {folder} does not exist</source>
        <translation>文件夹 {folder} 不存在</translation>
    </message>
    <message>
        <location filename="../core/saving.py" line="152"/>
        <source>the file name is too long for the file system; choose a shorter one</source>
        <translation>文件名对文件系统来说太长；请选择更短的名称</translation>
    </message>
    <message>
        <location filename="../core/saving.py" line="174"/>
        <source>this is the photo being blurred; BlurApp never writes over it, choose another name</source>
        <translation>这是正在模糊的照片；BlurApp 从不覆盖它，请选择其他名称</translation>
    </message>
    <message>
        <location filename="../core/saving.py" line="195"/>
        <source>unknown output format {extension}; use {accepted}</source>
        <translation>未知的输出格式 {extension}；请使用 {accepted}</translation>
    </message>
    <message>
        <location filename="../core/saving.py" line="73"/>
        <source>cannot write in {folder}: {reason}</source>
        <translation>无法写入 {folder}：{reason}</translation>
    </message>
    <message>
        <location filename="../core/saving.py" line="90"/>
        <location filename="../core/saving.py" line="158"/>
        <source>the file could not be written: {reason}</source>
        <translation>无法写入文件：{reason}</translation>
    </message>
    <message>
        <location filename="../core/saving.py" line="258"/>
        <source>{format} cannot store this image: {reason}</source>
        <translation>{format} 无法保存此图像：{reason}</translation>
    </message>
</context>
<context>
    <name>KernelSizeSpinBox</name>
    <message>
        <location filename="../ui/main_window.py" line="205"/>
        <source>kernel size {typed} is below the smallest, 1: using 1</source>
        <translation>卷积核大小 {typed} 小于最小值 1：使用 1</translation>
    </message>
    <message>
        <location filename="../ui/main_window.py" line="210"/>
        <source>kernel size {typed} is above the largest, {largest}: using {largest}</source>
        <translation>卷积核大小 {typed} 大于最大值 {largest}：使用 {largest}</translation>
    </message>
    <message>
        <location filename="../ui/main_window.py" line="214"/>
        <source>kernel sizes are odd, so the kernel has a centre: using {size}</source>
        <translation>卷积核大小须为奇数，以便有中心：使用 {size}</translation>
    </message>
</context>
<context>
    <name>MainWindow</name>
    <message>
        <location filename="../ui/main_window.py" line="100"/>
        <source>NumPy and JAX</source>
        <translation>NumPy 和 JAX</translation>
    </message>
    <message>
        <location filename="../ui/main_window.py" line="101"/>
        <source>NumPy only</source>
        <translation>仅 NumPy</translation>
    </message>
    <message>
        <location filename="../ui/main_window.py" line="102"/>
        <source>JAX only</source>
        <translation>仅 JAX</translation>
    </message>
    <message>
        <location filename="../ui/main_window.py" line="106"/>
        <source>2-D (tutorial)</source>
        <translation>二维（教程方法）</translation>
    </message>
    <message>
        <location filename="../ui/main_window.py" line="107"/>
        <source>Separable</source>
        <translation>可分离</translation>
    </message>
    <message>
        <location filename="../ui/main_window.py" line="110"/>
        <source>Blurred results</source>
        <translation>模糊结果</translation>
    </message>
    <message>
        <location filename="../ui/main_window.py" line="111"/>
        <location filename="../ui/main_window.py" line="1150"/>
        <source>Original</source>
        <translation>原图</translation>
    </message>
    <message>
        <location filename="../ui/main_window.py" line="112"/>
        <location filename="../ui/main_window.py" line="1155"/>
        <source>Difference</source>
        <translation>差异</translation>
    </message>
    <message>
        <location filename="../ui/main_window.py" line="179"/>
        <source>Images</source>
        <translation>图像</translation>
    </message>
    <message>
        <location filename="../ui/main_window.py" line="180"/>
        <source>All files</source>
        <translation>所有文件</translation>
    </message>
    <message>
        <location filename="../ui/main_window.py" line="363"/>
        <source>not loaded yet</source>
        <translation>尚未加载</translation>
    </message>
    <message>
        <location filename="../ui/main_window.py" line="365"/>
        <source>device not known yet</source>
        <translation>设备尚未确定</translation>
    </message>
    <message>
        <location filename="../ui/main_window.py" line="374"/>
        <source>System</source>
        <translation>系统</translation>
    </message>
    <message>
        <location filename="../ui/main_window.py" line="520"/>
        <source>Kernel size in pixels: odd, so the kernel has a centre</source>
        <translation>卷积核尺寸（像素）：须为奇数，使卷积核有中心</translation>
    </message>
    <message>
        <location filename="../ui/main_window.py" line="521"/>
        <source>a&amp;uto</source>
        <translation>自动(&amp;U)</translation>
    </message>
    <message>
        <location filename="../ui/main_window.py" line="522"/>
        <source>Choose the size from sigma: 2·ceil(3σ)+1</source>
        <translation>按 sigma 选择尺寸：2·ceil(3σ)+1</translation>
    </message>
    <message>
        <location filename="../ui/main_window.py" line="539"/>
        <source>2-D: the tutorial&apos;s k × k taps. Separable: k taps along the rows, then k down the columns: the same blur in 2k taps instead of k².</source>
        <translation>二维：教程中的 k × k 次采样。可分离：先沿行 k 次，再沿列 k 次：以 2k 次代替 k² 次得到同样的模糊。</translation>
    </message>
    <message>
        <location filename="../ui/main_window.py" line="552"/>
        <location filename="../ui/main_window.py" line="615"/>
        <source>Run</source>
        <translation>运行</translation>
    </message>
    <message>
        <location filename="../ui/main_window.py" line="554"/>
        <source>Blur with the chosen engines (Ctrl+R)</source>
        <translation>用所选引擎进行模糊（Ctrl+R）</translation>
    </message>
    <message>
        <location filename="../ui/main_window.py" line="556"/>
        <location filename="../ui/main_window.py" line="616"/>
        <source>Cancel</source>
        <translation>取消</translation>
    </message>
    <message>
        <location filename="../ui/main_window.py" line="557"/>
        <source>Stop the run in progress (Esc)</source>
        <translation>停止正在进行的运行（Esc）</translation>
    </message>
    <message>
        <location filename="../ui/main_window.py" line="568"/>
        <source>&amp;Kernel size</source>
        <translation>卷积核尺寸(&amp;K)</translation>
    </message>
    <message>
        <location filename="../ui/main_window.py" line="569"/>
        <source>&amp;Sigma</source>
        <translation>Sigma(&amp;S)</translation>
    </message>
    <message>
        <location filename="../ui/main_window.py" line="570"/>
        <location filename="../ui/main_window.py" line="619"/>
        <source>Kernel used</source>
        <translation>实际卷积核</translation>
    </message>
    <message>
        <location filename="../ui/main_window.py" line="571"/>
        <source>Algori&amp;thm</source>
        <translation>算法(&amp;T)</translation>
    </message>
    <message>
        <location filename="../ui/main_window.py" line="572"/>
        <source>E&amp;ngines</source>
        <translation>引擎(&amp;N)</translation>
    </message>
    <message>
        <location filename="../ui/main_window.py" line="573"/>
        <source>Sho&amp;w</source>
        <translation>显示(&amp;W)</translation>
    </message>
    <message>
        <location filename="../ui/main_window.py" line="587"/>
        <source>Gaussian blur</source>
        <translation>高斯模糊</translation>
    </message>
    <message>
        <location filename="../ui/main_window.py" line="602"/>
        <source>Gaussian sigma in pixels</source>
        <translation>高斯 sigma（像素）</translation>
    </message>
    <message>
        <location filename="../ui/main_window.py" line="604"/>
        <source>Kernel size</source>
        <translation>卷积核尺寸</translation>
    </message>
    <message>
        <location filename="../ui/main_window.py" line="605"/>
        <source>Automatic kernel size</source>
        <translation>自动卷积核尺寸</translation>
    </message>
    <message>
        <location filename="../ui/main_window.py" line="606"/>
        <source>Sigma</source>
        <translation>Sigma</translation>
    </message>
    <message>
        <location filename="../ui/main_window.py" line="607"/>
        <source>Sigma slider</source>
        <translation>Sigma 滑块</translation>
    </message>
    <message>
        <location filename="../ui/main_window.py" line="608"/>
        <source>Algorithm</source>
        <translation>算法</translation>
    </message>
    <message>
        <location filename="../ui/main_window.py" line="609"/>
        <source>Engines</source>
        <translation>引擎</translation>
    </message>
    <message>
        <location filename="../ui/main_window.py" line="609"/>
        <source>Which engines a run uses</source>
        <translation>一次运行使用哪些引擎</translation>
    </message>
    <message>
        <location filename="../ui/main_window.py" line="612"/>
        <source>Show</source>
        <translation>显示</translation>
    </message>
    <message>
        <location filename="../ui/main_window.py" line="613"/>
        <source>What the panes show: results, original or difference</source>
        <translation>窗格显示的内容：结果、原图或差异</translation>
    </message>
    <message>
        <location filename="../ui/main_window.py" line="620"/>
        <source>The kernel size a run will use</source>
        <translation>运行时将使用的卷积核尺寸</translation>
    </message>
    <message>
        <location filename="../ui/main_window.py" line="622"/>
        <source>Notes on the parameters</source>
        <translation>参数说明</translation>
    </message>
    <message>
        <location filename="../ui/main_window.py" line="662"/>
        <source>&amp;File</source>
        <translation>文件(&amp;F)</translation>
    </message>
    <message>
        <location filename="../ui/main_window.py" line="664"/>
        <source>&amp;Open…</source>
        <translation>打开(&amp;O)…</translation>
    </message>
    <message>
        <location filename="../ui/main_window.py" line="666"/>
        <source>Open &amp;Recent</source>
        <translation>最近打开(&amp;R)</translation>
    </message>
    <message>
        <location filename="../ui/main_window.py" line="668"/>
        <source>&amp;Save Results…</source>
        <translation>保存结果(&amp;S)…</translation>
    </message>
    <message>
        <location filename="../ui/main_window.py" line="671"/>
        <source>&amp;Quit</source>
        <translation>退出(&amp;Q)</translation>
    </message>
    <message>
        <location filename="../ui/main_window.py" line="673"/>
        <source>&amp;Edit</source>
        <translation>编辑(&amp;E)</translation>
    </message>
    <message>
        <location filename="../ui/main_window.py" line="675"/>
        <source>&amp;Copy Selected Image</source>
        <translation>复制所选图像(&amp;C)</translation>
    </message>
    <message>
        <location filename="../ui/main_window.py" line="678"/>
        <source>&amp;View</source>
        <translation>视图(&amp;V)</translation>
    </message>
    <message>
        <location filename="../ui/main_window.py" line="679"/>
        <source>Zoom &amp;In</source>
        <translation>放大(&amp;I)</translation>
    </message>
    <message>
        <location filename="../ui/main_window.py" line="685"/>
        <source>Zoom &amp;Out</source>
        <translation>缩小(&amp;O)</translation>
    </message>
    <message>
        <location filename="../ui/main_window.py" line="690"/>
        <source>&amp;Fit to Window</source>
        <translation>适应窗口(&amp;F)</translation>
    </message>
    <message>
        <location filename="../ui/main_window.py" line="693"/>
        <source>&amp;Actual Size (100%)</source>
        <translation>实际大小 (100%)(&amp;A)</translation>
    </message>
    <message>
        <location filename="../ui/main_window.py" line="698"/>
        <source>Select the Other &amp;Pane</source>
        <translation>选择另一个窗格(&amp;P)</translation>
    </message>
    <message>
        <location filename="../ui/main_window.py" line="711"/>
        <location filename="../ui/main_window.py" line="712"/>
        <source>&amp;Run</source>
        <translation>运行(&amp;R)</translation>
    </message>
    <message>
        <location filename="../ui/main_window.py" line="717"/>
        <source>&amp;Cancel</source>
        <translation>取消(&amp;C)</translation>
    </message>
    <message>
        <location filename="../ui/main_window.py" line="720"/>
        <source>&amp;Help</source>
        <translation>帮助(&amp;H)</translation>
    </message>
    <message>
        <location filename="../ui/main_window.py" line="722"/>
        <source>&amp;Keyboard Shortcuts</source>
        <translation>键盘快捷键(&amp;K)</translation>
    </message>
    <message>
        <location filename="../ui/main_window.py" line="726"/>
        <source>&amp;About BlurApp</source>
        <translation>关于 BlurApp(&amp;A)</translation>
    </message>
    <message>
        <location filename="../ui/main_window.py" line="737"/>
        <source>Both panes share this zoom: Ctrl+0 fits, Ctrl+1 is 100%</source>
        <translation>两个窗格共用此缩放：Ctrl+0 适应窗口，Ctrl+1 为 100%</translation>
    </message>
    <message>
        <location filename="../ui/main_window.py" line="746"/>
        <source>Zoom {percent}</source>
        <translation>缩放 {percent}</translation>
    </message>
    <message>
        <location filename="../ui/main_window.py" line="800"/>
        <source>(auto, 2·ceil(3σ)+1 = {size})</source>
        <translation>（自动，2·ceil(3σ)+1 = {size}）</translation>
    </message>
    <message>
        <location filename="../ui/main_window.py" line="829"/>
        <source>Open Photo</source>
        <translation>打开照片</translation>
    </message>
    <message>
        <location filename="../ui/main_window.py" line="861"/>
        <source>Opening {name}…</source>
        <translation>正在打开 {name}…</translation>
    </message>
    <message>
        <location filename="../ui/main_window.py" line="892"/>
        <source>sample photo ({name})</source>
        <translation>示例照片（{name}）</translation>
    </message>
    <message>
        <location filename="../ui/main_window.py" line="901"/>
        <source>Could not open the photo</source>
        <translation>无法打开照片</translation>
    </message>
    <message>
        <location filename="../ui/main_window.py" line="902"/>
        <source>Cannot Open Photo</source>
        <translation>无法打开照片</translation>
    </message>
    <message>
        <location filename="../ui/main_window.py" line="918"/>
        <source>Invalid Kernel</source>
        <translation>无效的卷积核</translation>
    </message>
    <message>
        <location filename="../ui/main_window.py" line="940"/>
        <source>Cancelled</source>
        <translation>已取消</translation>
    </message>
    <message>
        <location filename="../ui/main_window.py" line="965"/>
        <source>NumPy %p%</source>
        <translation>NumPy %p%</translation>
    </message>
    <message>
        <location filename="../ui/main_window.py" line="967"/>
        <source>NumPy: {done} of {total} kernel taps</source>
        <translation>NumPy：已完成 {done} / {total} 次采样</translation>
    </message>
    <message>
        <location filename="../ui/main_window.py" line="969"/>
        <source>NumPy: starting…</source>
        <translation>NumPy：正在开始…</translation>
    </message>
    <message>
        <location filename="../ui/main_window.py" line="974"/>
        <source>JAX: compiling and running…</source>
        <translation>JAX：正在编译并运行…</translation>
    </message>
    <message>
        <location filename="../ui/main_window.py" line="1028"/>
        <source>The run failed</source>
        <translation>运行失败</translation>
    </message>
    <message>
        <location filename="../ui/main_window.py" line="1032"/>
        <source>Run Failed</source>
        <translation>运行失败</translation>
    </message>
    <message>
        <location filename="../ui/main_window.py" line="1033"/>
        <source>The comparison failed: {reason}</source>
        <translation>对比失败：{reason}</translation>
    </message>
    <message>
        <location filename="../ui/main_window.py" line="1041"/>
        <source>earlier run, out of date</source>
        <translation>较早的运行，已过期</translation>
    </message>
    <message>
        <location filename="../ui/main_window.py" line="1058"/>
        <source>JAX {time} on {device}</source>
        <translation>JAX {time}，设备 {device}</translation>
    </message>
    <message>
        <location filename="../ui/main_window.py" line="1063"/>
        <source>JAX unavailable</source>
        <translation>JAX 不可用</translation>
    </message>
    <message>
        <location filename="../ui/main_window.py" line="1064"/>
        <source>Done: {figures}</source>
        <translation>完成：{figures}</translation>
    </message>
    <message>
        <location filename="../ui/main_window.py" line="1108"/>
        <source>Open a photo: File ▸ Open (Ctrl+O), or drop one here</source>
        <translation>打开一张照片：文件 ▸ 打开（Ctrl+O），或拖放到此处</translation>
    </message>
    <message>
        <location filename="../ui/main_window.py" line="1110"/>
        <source>The difference appears after a run with both engines</source>
        <translation>用两个引擎运行后显示差异</translation>
    </message>
    <message>
        <location filename="../ui/main_window.py" line="1114"/>
        <source>{engine} could not run:</source>
        <translation>{engine} 无法运行：</translation>
    </message>
    <message>
        <location filename="../ui/main_window.py" line="1131"/>
        <source>the parameters changed since this run; press Run</source>
        <translation>此次运行后参数已更改；请点击运行</translation>
    </message>
    <message>
        <location filename="../ui/main_window.py" line="1134"/>
        <source>a later run has replaced results on screen; press Run</source>
        <translation>之后的运行已替换屏幕上的结果；请点击运行</translation>
    </message>
    <message>
        <location filename="../ui/main_window.py" line="1144"/>
        <source>out of date</source>
        <translation>已过期</translation>
    </message>
    <message>
        <location filename="../ui/main_window.py" line="1150"/>
        <source>grayscale</source>
        <translation>灰度</translation>
    </message>
    <message>
        <location filename="../ui/main_window.py" line="1160"/>
        <source>identical outputs (all black)</source>
        <translation>输出完全相同（全黑）</translation>
    </message>
    <message>
        <location filename="../ui/main_window.py" line="1163"/>
        <source>black = 0, white = {white} ({levels} of an 8-bit level), stretched to be seen</source>
        <translation>黑 = 0，白 = {white}（{levels} 个 8 位灰度级），已拉伸以便观察</translation>
    </message>
    <message>
        <location filename="../ui/main_window.py" line="1171"/>
        <source>unavailable</source>
        <translation>不可用</translation>
    </message>
    <message>
        <location filename="../ui/main_window.py" line="1175"/>
        <source>GPU when present, else CPU</source>
        <translation>有 GPU 时用 GPU，否则用 CPU</translation>
    </message>
    <message>
        <location filename="../ui/main_window.py" line="1178"/>
        <source>not run yet: showing the original, press Run</source>
        <translation>尚未运行：显示原图，请点击运行</translation>
    </message>
    <message>
        <location filename="../ui/main_window.py" line="1185"/>
        <source>compiled</source>
        <translation>已编译</translation>
    </message>
    <message>
        <location filename="../ui/main_window.py" line="1186"/>
        <source>from cache</source>
        <translation>取自缓存</translation>
    </message>
    <message>
        <location filename="../ui/main_window.py" line="1187"/>
        <source>already compiled</source>
        <translation>已编译</translation>
    </message>
    <message>
        <location filename="../ui/main_window.py" line="1190"/>
        <source>steady {steady} · first call {first} ({how})</source>
        <translation>稳定 {steady} · 首次调用 {first}（{how}）</translation>
    </message>
    <message>
        <location filename="../ui/main_window.py" line="1196"/>
        <source>separable</source>
        <translation>可分离</translation>
    </message>
    <message>
        <location filename="../ui/main_window.py" line="1273"/>
        <source>Save Results Made with Different Parameters?</source>
        <translation>保存用不同参数得到的结果？</translation>
    </message>
    <message>
        <location filename="../ui/main_window.py" line="1274"/>
        <source>The two results were not made with the same parameters:</source>
        <translation>两个结果不是用相同参数得到的：</translation>
    </message>
    <message>
        <location filename="../ui/main_window.py" line="1276"/>
        <source>Each file&apos;s name and description say which parameters made it. Save both?</source>
        <translation>每个文件的名称和说明都注明了所用参数。两个都保存吗？</translation>
    </message>
    <message>
        <location filename="../ui/main_window.py" line="1293"/>
        <source>Save Results to Folder</source>
        <translation>将结果保存到文件夹</translation>
    </message>
    <message>
        <location filename="../ui/main_window.py" line="1310"/>
        <source>Replace Files?</source>
        <translation>替换文件？</translation>
    </message>
    <message>
        <location filename="../ui/main_window.py" line="1311"/>
        <source>These files already exist in {folder}:</source>
        <translation>以下文件已存在于 {folder}：</translation>
    </message>
    <message>
        <location filename="../ui/main_window.py" line="1315"/>
        <source>Replace them?</source>
        <translation>是否替换？</translation>
    </message>
    <message>
        <location filename="../ui/main_window.py" line="1303"/>
        <location filename="../ui/main_window.py" line="1331"/>
        <source>Cannot Save Results</source>
        <translation>无法保存结果</translation>
    </message>
    <message>
        <location filename="../ui/main_window.py" line="1335"/>
        <source>Saved {files} in {folder}</source>
        <translation>已将 {files} 保存到 {folder}</translation>
    </message>
    <message>
        <location filename="../ui/main_window.py" line="1346"/>
        <source>Copied the {engine} image</source>
        <translation>已复制 {engine} 图像</translation>
    </message>
    <message>
        <location filename="../ui/main_window.py" line="1399"/>
        <source>Clear Menu</source>
        <translation>清空菜单</translation>
    </message>
    <message>
        <location filename="../ui/main_window.py" line="1441"/>
        <source>no photo</source>
        <translation>无照片</translation>
    </message>
    <message>
        <location filename="../ui/app.py" line="135"/>
        <source>BlurApp is still running; the details are in the log.</source>
        <translation>BlurApp 仍在运行；详情见日志。</translation>
    </message>
    <message>
        <location filename="../ui/app.py" line="139"/>
        <source>Unexpected Error</source>
        <translation>意外错误</translation>
    </message>
</context>
<context>
    <name>ResultPane</name>
    <message>
        <location filename="../ui/image_pane.py" line="245"/>
        <source>{engine} image</source>
        <translation>{engine} 图像</translation>
    </message>
    <message>
        <location filename="../ui/image_pane.py" line="248"/>
        <source>{engine}: wheel or Ctrl +/− to zoom, drag or arrow keys to pan; both panes move together</source>
        <translation>{engine}：滚轮或 Ctrl +/− 缩放，拖动或方向键平移；两个窗格同步移动</translation>
    </message>
</context>
<context>
    <name>ShortcutsDialog</name>
    <message>
        <location filename="../ui/main_window.py" line="304"/>
        <source>Keyboard Shortcuts</source>
        <translation>键盘快捷键</translation>
    </message>
    <message>
        <location filename="../ui/main_window.py" line="306"/>
        <source>Menu</source>
        <translation>菜单</translation>
    </message>
    <message>
        <location filename="../ui/main_window.py" line="306"/>
        <source>Action</source>
        <translation>操作</translation>
    </message>
    <message>
        <location filename="../ui/main_window.py" line="306"/>
        <source>Keys</source>
        <translation>按键</translation>
    </message>
    <message>
        <location filename="../ui/main_window.py" line="309"/>
        <source>Keyboard shortcuts</source>
        <translation>键盘快捷键</translation>
    </message>
    <message>
        <location filename="../ui/main_window.py" line="318"/>
        <source>Tab moves through the parameters and the two panes; in a pane the arrow keys pan. Alt and an underlined letter jumps to a parameter.</source>
        <translation>Tab 键在参数和两个窗格之间移动；在窗格中用方向键平移。Alt 加带下划线的字母可跳到对应参数。</translation>
    </message>
</context>
<context>
    <name>SigmaSpinBox</name>
    <message>
        <location filename="../ui/main_window.py" line="265"/>
        <source>sigma {typed} is below the smallest, {smallest}: using {smallest}</source>
        <translation>sigma {typed} 小于最小值 {smallest}：使用 {smallest}</translation>
    </message>
    <message>
        <location filename="../ui/main_window.py" line="269"/>
        <source>sigma {typed} is above the largest, {largest}: using {largest}</source>
        <translation>sigma {typed} 大于最大值 {largest}：使用 {largest}</translation>
    </message>
</context>
<context>
    <name>TimingChart</name>
    <message>
        <location filename="../ui/figures_panel.py" line="156"/>
        <source>Bar length is proportional to time. A bar with a break is too long to draw to scale; its time is printed beside it.</source>
        <translation>条形长度与耗时成正比。带断口的条形太长，无法按比例绘制；其耗时标在旁边。</translation>
    </message>
    <message>
        <location filename="../ui/figures_panel.py" line="193"/>
        <source>Timings appear after a run</source>
        <translation>运行后显示耗时</translation>
    </message>
</context>
</TS>
