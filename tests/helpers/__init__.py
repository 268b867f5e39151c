"""What the tests share, written once: the numerical oracle, photo makers, the window's Run, the
`blurapp` subprocess, hostile files. Importable from every test folder as `helpers`
(pyproject.toml puts tests/ on the path)."""
