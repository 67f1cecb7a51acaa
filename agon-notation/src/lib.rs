//! Agon game records and position strings (filled by the notation issue).
