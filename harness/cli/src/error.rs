//! CLI errors: user-input mistakes exit 2, failed checks exit 1.

#[derive(Debug, thiserror::Error)]
pub enum CliError {
    #[error("{0}")]
    Usage(String),
    #[error("{0}")]
    CheckFailed(String),
}

impl CliError {
    pub fn exit_code(&self) -> u8 {
        match self {
            CliError::Usage(_) => 2,
            CliError::CheckFailed(_) => 1,
        }
    }
}
